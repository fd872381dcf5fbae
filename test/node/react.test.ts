/**
 * `consult-elements/react`: the components are the ones custom-elements.json describes (the file is
 * made from it, and a change to either without the other fails here), every event is an `on…`
 * prop, and React's server renderer renders them (the tags, the partner's own attributes and the
 * children; element properties are set in the browser, so nothing of them is in the HTML). They
 * are client components, and a second copy of them on a server (Next.js loads the package once
 * per layer) registers without a word.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it, mock } from 'node:test';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { ELEMENT_ORDER, elementsOf, readManifest } from '../../scripts/element-reference.js';
import { componentName, eventProp, formattedWrappers, WRAPPERS_PATH } from '../../scripts/react-wrappers.js';
import * as wrappers from '../../src/react/index.js';
import { ConsultElement } from '../../src/elements/shared/consult-element.js';

const manifest = readManifest();

describe('the React components', () => {
  it('are made from custom-elements.json, as committed', async () => {
    assert.ok(
      readFileSync(WRAPPERS_PATH, 'utf8') === (await formattedWrappers(manifest)),
      'src/react/index.ts differs from what custom-elements.json makes: run npm run generate',
    );
  });

  it('one component per element, each event an on… prop', () => {
    const elements = elementsOf(manifest);
    const source = readFileSync(WRAPPERS_PATH, 'utf8');
    for (const tag of ELEMENT_ORDER) {
      const name = componentName(tag);
      assert.ok(name in wrappers, `${name} is exported`);
      for (const event of elements.get(tag)?.events ?? []) {
        assert.ok(source.includes(`${eventProp(event.name)}: '${event.name}'`), `${tag}: ${event.name}`);
      }
    }
    assert.equal(eventProp('consult-submitted'), 'onConsultSubmitted');
    assert.equal(eventProp('session-expired'), 'onSessionExpired');
  });

  it('render on the server: tags, the partner’s attributes and children, no element properties', () => {
    const html = renderToString(
      createElement(
        wrappers.ConsultSession,
        {
          endpoint: '/consult',
          id: 'session',
          className: 'portal',
          tokenProvider: async () => ({}),
        } as never,
        createElement(
          wrappers.ConsultForm,
          { busy: true, onConsultSubmitted: () => undefined } as never,
          createElement('p', { slot: 'no-subscription' }, 'Ask about our Plus plan'),
        ),
        createElement(wrappers.CaseHistory, { chunkSize: 5000 } as never),
      ),
    );
    assert.match(html, /^<consult-session id="session" class="portal">/);
    assert.match(
      html,
      /<consult-form><p slot="no-subscription">Ask about our Plus plan<\/p><\/consult-form>/,
    );
    assert.match(html, /<case-history><\/case-history><\/consult-session>$/);
    assert.doesNotMatch(html, /tokenProvider|endpoint|busy|5000|onConsult/);
  });

  it('are client components: the module starts with its use client directive', () => {
    const source = readFileSync(WRAPPERS_PATH, 'utf8');
    assert.ok(source.startsWith("'use client';\n"), source.slice(0, 80));
  });

  it('on a server, a second copy of an element registers silently; with no registry, not at all', () => {
    assert.equal(typeof document, 'undefined', 'this runs where a server renders: no document');
    assert.ok(customElements.get('consult-form'), 'importing the components registered the form');
    // What a second copy of the package brings: another class under the same name.
    const copy = class ConsultFormCopy extends ConsultElement {};
    const warn = mock.method(console, 'warn', () => undefined);
    try {
      assert.equal(copy.define('consult-form'), customElements.get('consult-form'));
      assert.equal(warn.mock.callCount(), 0, 'no "already defined" warning on a server');
    } finally {
      warn.mock.restore();
    }
    // A server without Lit's stand-in registry: nothing to register in, and no ReferenceError.
    const registry = globalThis.customElements;
    const none = class NoRegistry extends ConsultElement {};
    Reflect.deleteProperty(globalThis, 'customElements');
    try {
      assert.equal(none.define('consult-none'), none);
    } finally {
      globalThis.customElements = registry;
    }
    assert.equal(customElements.get('consult-none'), undefined);
  });
});
