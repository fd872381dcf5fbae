/**
 * `consult-elements/react`: the components are the ones custom-elements.json describes (the file is
 * made from it, and a change to either without the other fails here), every event is an `on…`
 * prop, and React's server renderer renders them (the tags, the partner's own attributes and the
 * children; element properties are set in the browser, so nothing of them is in the HTML).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { ELEMENT_ORDER, elementsOf, readManifest } from '../../scripts/element-reference.js';
import { componentName, eventProp, formattedWrappers, WRAPPERS_PATH } from '../../scripts/react-wrappers.js';
import * as wrappers from '../../src/react/index.js';

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
});
