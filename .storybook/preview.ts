import { setCustomElementsManifest, type Preview } from '@storybook/web-components-vite';
import manifest from '../custom-elements.json';
import './preview.css';

// Each element's attributes, properties, events, slots, parts and CSS properties, for the docs
// pages' tables and the controls: from the manifest, the one source of truth.
setCustomElementsManifest(manifest);

const preview: Preview = {
  tags: ['autodocs'],
  parameters: {
    layout: 'padded',
    backgrounds: {
      options: {
        page: { name: 'Page', value: '#f6f7f7' },
        white: { name: 'White', value: '#ffffff' },
        dark: { name: 'Dark', value: '#15181a' },
      },
    },
    controls: { expanded: true },
    docs: { toc: true },
  },
  initialGlobals: { backgrounds: { value: 'page' } },
};

export default preview;
