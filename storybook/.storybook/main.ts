import type { StorybookConfig } from '@storybook/react-vite';

/**
 * One Storybook over every widget's stories and the pages' skeletons of them. Components are imported directly: widgets are
 * federation remotes only in their own builds, so no federation plugin runs here.
 */
const config: StorybookConfig = {
  stories: ['../../widgets/*/src/**/*.stories.tsx', '../../host-pages/stories/*.stories.tsx'],
  framework: { name: '@storybook/react-vite', options: {} },
  // Offline machine: telemetry and the "what's new" fetch would otherwise wait on the network.
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  typescript: { reactDocgen: false },
  async viteFinal(viteConfig) {
    const { mergeConfig } = await import('vite');
    return mergeConfig(viteConfig, {
      logLevel: 'warn',
      build: { reportCompressedSize: false, chunkSizeWarningLimit: 2048 },
    });
  },
};

export default config;
