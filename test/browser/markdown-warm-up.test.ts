/**
 * The markdown renderer, fetched at idle by a thread, then made to render one answer of its own, still
 * at idle: the first answer a page makes costs several times the next, and an answer that arrives
 * while the member waits should not pay for it. In a file of its own, so that nothing has been
 * rendered in this page before it.
 */
import { expect } from '@open-wc/testing';
import { prefetchMarkdownWhenIdle, renderMarkdown } from '../../src/elements/shared/markdown.js';
import { waitUntil } from './support/elements.js';

/** Resolves once the page has been idle twice over: whatever waits for idle time has run. */
const idle = () =>
  new Promise<void>((resolve) => requestIdleCallback(() => requestIdleCallback(() => resolve())));

describe('the markdown renderer, fetched at idle', () => {
  it('makes one answer of its own there, once, with what answers hold: the sanitizer sees it', async () => {
    // DOMPurify parses what it sanitizes with the browser's DOMParser: what it was given shows here.
    const sanitized: string[] = [];
    const parse = DOMParser.prototype.parseFromString;
    DOMParser.prototype.parseFromString = function (this: DOMParser, text, type) {
      sanitized.push(String(text));
      return parse.call(this, text, type);
    };
    try {
      prefetchMarkdownWhenIdle();
      prefetchMarkdownWhenIdle();
      await waitUntil(() => sanitized.length > 0, 'the renderer to make its own answer', { timeout: 10_000 });
      const [made] = sanitized;
      for (const part of ['<h5>', '<strong>', '<em>', '<code>', '<a href', '<ul>', '<ol>', '<blockquote>'])
        expect(made, part).to.include(part);
      // Asked again (another thread on the page), it makes none again.
      prefetchMarkdownWhenIdle();
      await idle();
      await idle();
      expect(sanitized).to.have.length(1);
      // A real answer goes the same way.
      const fragment = await renderMarkdown('Rest, and **drink water**.');
      expect(fragment.querySelector('strong')?.textContent).to.equal('drink water');
      expect(sanitized).to.have.length(2);
    } finally {
      DOMParser.prototype.parseFromString = parse;
    }
  });
});
