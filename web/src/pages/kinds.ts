// The hosted kinds (GET /api/v1/kinds), fetched once per page load and shared by the pages: the web
// names no kind itself (a kind added to the server shows here with its name from the API).
import { useEffect, useState } from 'preact/hooks';
import { api, problemText, type Schemas } from '../api/client';

export type KindInfo = Schemas['KindInfo'];
export type KindStart = Schemas['KindStart'];

let kindsOnce: Promise<KindInfo[]> | undefined;
/** The kinds once loaded, by id, for the synchronous kindName. */
const loaded = new Map<string, KindInfo>();

/** A kind's name for people once the kinds are loaded (the App loads them first), else its id. */
export function kindName(kind: string): string {
  return loaded.get(kind)?.name ?? kind;
}

export function loadKinds(): Promise<KindInfo[]> {
  kindsOnce ??= api.GET('/api/v1/kinds').then(({ data, error }) => {
    if (!data) {
      kindsOnce = undefined;
      throw new Error(problemText(error));
    }
    for (const info of data.items) loaded.set(info.kind, info);
    return data.items;
  });
  return kindsOnce;
}

/** The kinds, or null while loading; an error message if they could not be read. */
export function useKinds(): { kinds: KindInfo[] | null; error: string | null } {
  const [kinds, setKinds] = useState<KindInfo[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    loadKinds().then(setKinds, (e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, []);
  return { kinds, error };
}

/** Where a game would start (POST /kinds/{kind}/start): nothing is created. */
export async function describeStart(
  kind: string,
  body: Schemas['StartBody'] = {},
): Promise<{ start?: KindStart; error?: string }> {
  const { data, error } = await api.POST('/api/v1/kinds/{kind}/start', { params: { path: { kind } }, body });
  return data ? { start: data } : { error: problemText(error) };
}
