# Boardhost: build the TypeScript and the browser playground (esbuild, a devDependency: only the build
# stage has it), then run on a slim Node 24 (LTS) image with production dependencies only.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY scripts/build-web.mjs ./scripts/
COPY web ./web
RUN npm run build

FROM node:24-bookworm-slim
ENV NODE_ENV=production PORT=4000
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
# dist/ holds the server and the built playground (dist/web).
COPY --from=build /app/dist ./dist
# The rules pages, served at /rules/<kind>.md (GET /api/v1/kinds links to them).
COPY docs ./docs
EXPOSE 4000
USER node
# Liveness, not readiness: a Redis blip must not get the container restarted (load balancers use /readyz).
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||4000)+'/livez').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/main.js"]
