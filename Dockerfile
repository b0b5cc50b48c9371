# One image for the web processes and the workers, on Node 24 LTS (Node 20's support ended in
# April 2026; the service still runs on 20 for `npm install && npm start` on a developer's machine).
FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
# The demo draws Cyrillic captions with a system font.
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends fonts-dejavu-core && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY shared-contracts/package.json shared-contracts/
COPY server/package.json server/
COPY host-pages/package.json host-pages/
COPY widgets widgets
COPY storybook/package.json storybook/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --include=dev --no-audit --no-fund
COPY . .
RUN npm run build
USER node
EXPOSE 3000
# The web process; `npm run worker` (server/src/worker.ts) runs the job workers.
CMD ["node", "--import", "tsx", "server/src/main.ts"]
