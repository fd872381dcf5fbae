import { setCustomElementsManifest, type Preview } from '@storybook/web-components-vite';
import manifest from '../custom-elements.json';
import { manifestForDocs, pasteableSnippet, withoutReadOnlyControls } from './docs-tools.js';
import './preview.css';

// Each element's attributes, properties, events, slots, parts and CSS properties, for the docs
// pages' tables and the controls: from the manifest, the one source of truth.
setCustomElementsManifest(manifestForDocs(manifest));

const preview: Preview = {
  tags: ['autodocs'],
  // Controls for attributes and properties only: an event, a slot or a part is read about, not set.
  argTypesEnhancers: [(context) => withoutReadOnlyControls(context.argTypes)],
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
    docs: { toc: true, source: { transform: (code: string) => pasteableSnippet(code) } },
  },
  initialGlobals: { backgrounds: { value: 'page' } },
};

export default preview;
