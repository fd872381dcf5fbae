/**
 * The one HTML sink of the codebase (SECURITY.md S11, S12): markdown from professionals and the
 * navigator is rendered by marked, sanitized by DOMPurify into a DOM fragment, and that fragment is
 * put into the page as it is. No HTML string is ever assigned anywhere. Both libraries load on
 * first use, so an element's first paint does not wait for them; until then the text shows as
 * plain text.
 *
 * Policy: a small set of text tags; links only to https, mailto and tel, opening in a new tab
 * with rel="noopener noreferrer"; no style attributes, forms, frames, SVG, MathML or images.
 */
import { noChange } from 'lit';
import { AsyncDirective, directive } from 'lit/async-directive.js';

const ALLOWED_TAGS = [
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'del',
  's',
  'ul',
  'ol',
  'li',
  'a',
  'code',
  'pre',
  'blockquote',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
];
const ALLOWED_ATTR = ['href', 'title', 'start'];
const ALLOWED_URI_REGEXP = /^(?:https:|mailto:|tel:)/i;

type Render = (markdown: string) => DocumentFragment;

let loading: Promise<Render> | undefined;
let ready: Render | undefined;

async function load(): Promise<Render> {
  const [{ Marked }, { default: createDOMPurify }] = await Promise.all([
    import('marked'),
    import('dompurify'),
  ]);
  // Own instances, so a partner's page-wide marked or DOMPurify settings are neither used nor changed.
  const marked = new Marked({
    gfm: true,
    breaks: true,
    async: false,
    walkTokens(token) {
      // The element sits inside the partner's page: its headings start below the page's own.
      if (token.type === 'heading') token.depth = Math.min(6, Math.max(3, token.depth + 2));
    },
  });
  const purify = createDOMPurify(window);
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'A' && node.hasAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
  return (markdown: string) =>
    purify.sanitize(marked.parse(markdown, { async: false }), {
      ALLOWED_TAGS,
      ALLOWED_ATTR,
      ALLOWED_URI_REGEXP,
      ALLOW_DATA_ATTR: false,
      ALLOW_ARIA_ATTR: false,
      RETURN_DOM_FRAGMENT: true,
    });
}

/** Starts loading the renderer, for elements that know they will need it soon. */
export function preloadMarkdown(): Promise<Render> {
  loading ??= load().then((render) => (ready = render));
  return loading;
}

/** Markdown as a sanitized fragment. */
export async function renderMarkdown(markdown: string): Promise<DocumentFragment> {
  return (await preloadMarkdown())(markdown);
}

class MarkdownDirective extends AsyncDirective {
  #source: string | undefined;

  render(source: string): unknown {
    if (source === this.#source) return noChange;
    this.#source = source;
    if (ready) return ready(source);
    void preloadMarkdown().then((render) => {
      if (this.#source === source && this.isConnected) this.setValue(render(source));
    });
    // Until the renderer arrives: the same words, as plain text.
    return source;
  }

  protected override reconnected(): void {
    // Render again on reconnection: the fragment's nodes may have moved.
    this.#source = undefined;
  }
}

/** `${markdown(text)}` in a Lit template: sanitized markdown. */
export const markdown = directive(MarkdownDirective);
