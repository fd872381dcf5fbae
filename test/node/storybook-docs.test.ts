/**
 * What Storybook's docs pages are made of, checked without a browser: "Show code" gives a snippet
 * that works when pasted, parts never hide slots of the same name, events and parts get no
 * controls, every States story has its line of text, and the setup pages find their README
 * sections.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import manifest from '../../custom-elements.json' with { type: 'json' };
import { placeholderDescription } from '../../scripts/element-reference.js';
import {
  LOADER_SCRIPT,
  manifestForDocs,
  pasteableSnippet,
  withoutReadOnlyControls,
} from '../../.storybook/docs-tools.js';
import { readmePassage, readmeSection } from '../../stories/support/readme.js';

const readme = readFileSync('README.md', 'utf8');

describe('Storybook’s docs pages', () => {
  it('"Show code" is the loader’s script tag and a session pointed at the proxy, with only the attributes set', () => {
    const rendered =
      '<consult-session lang="" theme="dark"><!--?lit$123$--><consult-form></consult-form><!----></consult-session>';
    assert.equal(
      pasteableSnippet(rendered),
      '<script type="module" src="/assets/consult-elements.js"></script>\n\n' +
        '<consult-session endpoint="/consult" theme="dark"><consult-form></consult-form></consult-session>',
    );
  });

  it('"Show code" has the loader’s script tag once, though Storybook transforms the snippet twice', () => {
    const rendered =
      '<consult-session lang="ar" theme=""><!--?lit$1$--><case-history></case-history><!----></consult-session>';
    const once = pasteableSnippet(rendered);
    // Where the story renders, then again on the docs page (addon-docs' Source block).
    const twice = pasteableSnippet(once);
    assert.equal(twice, once);
    assert.equal(twice.split(LOADER_SCRIPT).length - 1, 1);
    assert.equal(twice.match(/endpoint=/g)?.length, 1);
  });

  it('"Show code" of a story with no element is its HTML, with no script tag', () => {
    assert.equal(pasteableSnippet('<p>No consultations yet.</p><!---->'), '<p>No consultations yet.</p>');
  });

  it('"Show code" keeps a survey given as JSON in a child script', () => {
    const rendered =
      '<consult-session><prescription-request><script type="application/json">{"questions":[]}</script></prescription-request></consult-session>';
    assert.match(
      pasteableSnippet(rendered),
      /<prescription-request><script type="application\/json">\{"questions":\[\]\}<\/script><\/prescription-request>/,
    );
  });

  it('the prescription-request stories give their survey as markup, which "Show code" shows', () => {
    const source = readFileSync('stories/prescription-request.stories.ts', 'utf8');
    // A `.survey=${…}` property binding leaves no trace in the rendered HTML: pasted, the element has no survey.
    assert.doesNotMatch(source, /\.survey=/);
    assert.match(source, /<script type="application\/json">/);
  });

  it('no story control has a description that merely repeats its name (such as "`lang` attribute")', () => {
    const files = readdirSync('stories', { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.ts'),
    );
    const described = files.flatMap((file) =>
      [
        ...readFileSync(`stories/${file}`, 'utf8').matchAll(
          /(\w+|'[^']+'):\s*\{[^{}]*?\bdescription:\s*(?:'([^']*)'|"([^"]*)"|`([^`]*)`)/g,
        ),
      ].map(([, name, ...texts]) => ({
        file,
        name: name!.replace(/'/g, ''),
        text: texts.find((t) => t !== undefined),
      })),
    );
    assert.ok(
      described.some((d) => d.name === 'member'),
      'the controls are found',
    );
    const placeholders = described.flatMap(({ file, name, text }) => {
      const why = placeholderDescription(name, text);
      return why ? [`${file} ${name}: ${why}`] : [];
    });
    assert.deepEqual(placeholders, []);
  });

  it('lists parts as ::part(name), so a slot of the same name keeps its row', () => {
    const docs = manifestForDocs(manifest);
    const declarations = docs.modules.flatMap((m) => (m.declarations ?? []) as Record<string, unknown>[]);
    const form = declarations.find((d) => d['tagName'] === 'consult-form') as {
      slots: { name: string }[];
      cssParts: { name: string }[];
    };
    assert.ok(form.slots.some((slot) => slot.name === 'emergency'));
    assert.ok(form.cssParts.some((part) => part.name === '::part(emergency)'));
    const history = declarations.find((d) => d['tagName'] === 'case-history') as {
      slots: { name: string }[];
    };
    assert.ok(history.slots.some((slot) => slot.name === 'empty'));
    // The manifest itself is left as it is.
    assert.ok(
      JSON.stringify(manifest).includes('"name": "emergency"') ||
        JSON.stringify(manifest).includes('"name":"emergency"'),
    );
  });

  it('gives no control to events, slots, parts or CSS properties; attributes and properties keep theirs', () => {
    const argTypes = withoutReadOnlyControls({
      endpoint: { table: { category: 'attributes' } },
      session: { table: { category: 'properties' } },
      'consult-submitted': { table: { category: 'events' } },
      emergency: { table: { category: 'slots' } },
      '::part(emergency)': { table: { category: 'css shadow parts' } },
      '--consult-color-primary': { table: { category: 'css custom properties' } },
    }) as Record<string, { control?: unknown }>;
    assert.equal(argTypes['endpoint']?.control, undefined);
    assert.equal(argTypes['session']?.control, undefined);
    for (const name of ['consult-submitted', 'emergency', '::part(emergency)', '--consult-color-primary']) {
      assert.equal(argTypes[name]?.control, false, name);
    }
  });

  it('has a line of text for every States story', () => {
    const source = readFileSync('stories/states.stories.ts', 'utf8');
    const stories = [...source.matchAll(/(\*\/\n)?export const (\w+): Story/g)];
    assert.ok(stories.length > 10);
    const bare = stories.filter(([, comment]) => !comment).map(([, , name]) => name);
    assert.deepEqual(bare, [], 'each story has a comment above it, its description on the docs page');
  });

  it('finds the README sections its setup pages show', () => {
    for (const [heading, must] of [
      ['## Quickstart', 'npx consult-sandbox'],
      ['## Install and serve', 'content-security-policy'],
      ['## Troubleshooting', 'connect-src'],
    ] as const) {
      assert.match(readmeSection(readme, heading).toLowerCase(), new RegExp(must.toLowerCase()), heading);
    }
    assert.match(
      readmePassage(readme, 'In React, `consult-elements/react`', 'In Vue 3, the elements'),
      /consult-elements\/react/,
    );
    const vue = readmePassage(readme, 'In Vue 3, the elements', '`<consult-session>` signs the member in');
    assert.match(vue, /isCustomElement/);
    assert.match(vue, /\.suggestions="suggestions"/);
    assert.match(
      readmePassage(readme, 'For a page that cannot load modules', 'With a bundler, import from the package'),
      /consult-elements\.classic\.js/,
    );
    for (const page of ['getting-started', 'react', 'vue', 'classic-script', 'troubleshooting']) {
      assert.match(readFileSync(`stories/${page}.mdx`, 'utf8'), /readme(Section|Passage)\(readme/, page);
    }
  });
});
