# One image for the web process and the workers.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
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
CMD ["node", "--import", "tsx", "server/src/main.ts"]
