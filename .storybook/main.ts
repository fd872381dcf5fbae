import type { StorybookConfig } from '@storybook/web-components-vite';

const config: StorybookConfig = {
  stories: ['../stories/**/*.mdx', '../stories/**/*.stories.ts'],
  framework: '@storybook/web-components-vite',
  // Docs pages for every element (autodocs, from custom-elements.json) and the Theming page.
  addons: ['@storybook/addon-docs'],
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
};

export default config;
