# One image for the web processes and the workers, on Node 24 LTS (Node 20's support ended in
# April 2026; the service still runs on 20 for `npm install && npm start` on a developer's machine).
FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
# glibc's malloc raises its mmap threshold (up to 32 MB) after a large block is freed, so the
# decoders' large buffers (libvips, libjpeg) then come from per-thread arenas that keep them: a web
# process that checked eight 40-megapixel progressive JPEGs held on to 200 MB it no longer used.
# A fixed threshold (glibc's own default, 128 KiB) turns the adjustment off: measured, 13 MB held.
ENV MALLOC_MMAP_THRESHOLD_=131072
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
# The server compiled for plain Node (server/dist), the browser loader and the widgets.
RUN npm run build
USER node
EXPOSE 3000
# The web process, plain Node on the built server with the servers' V8 flags
# (server/src/lib/node-flags.ts); `node --no-allocation-site-pretenuring server/dist/worker.js`
# (`npm run worker`) runs the job workers.
CMD ["node", "--no-allocation-site-pretenuring", "server/dist/main.js"]
