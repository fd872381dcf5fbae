import { expect, fixture, html } from '@open-wc/testing';
import { renderMarkdown } from '../../src/elements/shared/markdown.js';
import { FORBIDDEN_ELEMENTS, XSS_PAYLOADS, XSS_PAYLOADS_BY_CLASS } from './fixtures/xss-payloads.js';

/** Traps the ways a payload would announce that it ran. */
function trapDialogs(): { calls: string[]; restore(): void } {
  const calls: string[] = [];
  const original = { alert: window.alert, confirm: window.confirm, prompt: window.prompt };
  window.alert = (m?: unknown) => void calls.push(`alert ${String(m)}`);
  window.confirm = (m?: unknown) => (calls.push(`confirm ${String(m)}`), false);
  window.prompt = (m?: unknown) => (calls.push(`prompt ${String(m)}`), null);
  return { calls, restore: () => Object.assign(window, original) };
}

/**
 * Gives what a payload could have left a chance to run: every image, frame and media element with
 * a source in `roots` has loaded or failed (its load or error handler ran), then zero-delay timers set by
 * those handlers fire.
 */
async function eventsHadTheirChance(roots: ParentNode[]): Promise<void> {
  const loading = roots
    .flatMap((root) => [
      ...root.querySelectorAll(':is(img, input, iframe, frame, video, audio, embed)[src], object[data]'),
    ])
    .filter((element) => !(element instanceof HTMLImageElement && element.complete))
    .map(
      (element) =>
        new Promise((resolve) => {
          element.addEventListener('load', resolve, { once: true });
          element.addEventListener('error', resolve, { once: true });
        }),
    );
  await Promise.all(loading);
  for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setTimeout(resolve));
}

/** What must never be left in rendered output. */
export function dangersIn(root: ParentNode): string[] {
  const found: string[] = [];
  for (const element of root.querySelectorAll('*')) {
    if (element.matches(FORBIDDEN_ELEMENTS)) found.push(`<${element.localName}>`);
    for (const attribute of element.attributes) {
      // Browsers ignore whitespace and control characters inside a URL scheme.
      // eslint-disable-next-line no-control-regex
      const value = attribute.value.replace(/[\s\u0000-\u001f]/g, '').toLowerCase();
      if (attribute.name.startsWith('on')) found.push(`${element.localName}[${attribute.name}]`);
      if (attribute.name === 'style') found.push(`${element.localName}[style]`);
      if (/^(javascript|vbscript|data):/.test(value))
        found.push(`${element.localName}[${attribute.name}=${value.slice(0, 20)}]`);
      if (['src', 'srcset', 'action', 'formaction', 'xlink:href', 'srcdoc'].includes(attribute.name)) {
        found.push(`${element.localName}[${attribute.name}]`);
      }
    }
    if (element.localName === 'a' && element.hasAttribute('href')) {
      if (!/^(https:|mailto:|tel:)/i.test(element.getAttribute('href')!))
        found.push(`a[href=${element.getAttribute('href')}]`);
      if (element.getAttribute('rel') !== 'noopener noreferrer')
        found.push('a without rel=noopener noreferrer');
    }
  }
  return found;
}

describe('the markdown renderer against XSS payloads (S11)', () => {
  it(`runs none of ${XSS_PAYLOADS.length} payloads and leaves nothing dangerous`, async () => {
    const trap = trapDialogs();
    (window as { __xss?: number }).__xss = 0;
    try {
      const container = await fixture<HTMLDivElement>(html`<div></div>`);
      const problems: string[] = [];
      for (const payload of XSS_PAYLOADS) {
        const fragment = await renderMarkdown(payload);
        const holder = document.createElement('div');
        holder.append(fragment);
        container.append(holder);
        const dangers = dangersIn(holder);
        if (dangers.length) problems.push(`${JSON.stringify(payload)} → ${dangers.join(', ')}`);
      }
      await eventsHadTheirChance([container]);
      expect(problems).to.deep.equal([]);
      expect(trap.calls).to.deep.equal([]);
      expect((window as { __xss?: number }).__xss).to.equal(0);
    } finally {
      trap.restore();
    }
  });

  it('keeps what an answer needs: emphasis, lists, code, safe links', async () => {
    const fragment = await renderMarkdown(
      '**Rest** and _fluids_:\n\n1. one\n2. two\n\n- a\n- b\n\n`code`\n\n[NHS](https://www.nhs.uk) · [mail](mailto:gp@example.org) · [call](tel:+441234567890)\n\n# Title',
    );
    const holder = document.createElement('div');
    holder.append(fragment);
    expect(holder.querySelector('strong')?.textContent).to.equal('Rest');
    expect(holder.querySelectorAll('ol li')).to.have.length(2);
    expect(holder.querySelectorAll('ul li')).to.have.length(2);
    expect(holder.querySelector('code')?.textContent).to.equal('code');
    const hrefs = [...holder.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(hrefs).to.deep.equal(['https://www.nhs.uk', 'mailto:gp@example.org', 'tel:+441234567890']);
    expect(holder.querySelector('a')!.getAttribute('target')).to.equal('_blank');
    // Headings start below the partner page's own.
    expect(holder.querySelector('h1, h2')).to.equal(null);
    expect(holder.querySelector('h3')?.textContent).to.equal('Title');
    expect(dangersIn(holder)).to.deep.equal([]);
  });
});

/**
 * Shows each payload in a `<consult-thread>` as an answer, a question and a professional record,
 * appended to `holder`, and lists what it finds that could run or reach out.
 */
async function threadProblems(holder: Element, payloads: readonly string[]): Promise<string[]> {
  const { ConsultThread } = await import('../../src/elements/consult-thread/consult-thread.js');
  ConsultThread.define('consult-thread');
  const problems: string[] = [];
  for (const [index, payload] of payloads.entries()) {
    const thread = document.createElement('consult-thread') as InstanceType<typeof ConsultThread>;
    thread.consultationId = `cns_xss_${index}`;
    thread.consultation = {
      consultationId: `cns_xss_${index}`,
      userId: 'usr_demo_alex',
      status: 'resolved',
      createdAt: new Date().toISOString(),
      questions: [
        {
          question: payload,
          answer: payload,
          attachments: [payload, 'javascript:alert(1)', 'https://files.example.org/leaflet.pdf'],
          professional: {
            name: payload,
            title: payload,
            specialties: [payload],
            licenses: [{ licenseNumber: payload, countries: ['GB'] }],
            profileUrl: index % 2 ? 'javascript:alert(1)' : payload,
          },
        },
      ],
    };
    holder.append(thread);
    await thread.updateComplete;
    await new Promise((resolve) => setTimeout(resolve, 0));
    const root = thread.shadowRoot!;
    for (const answer of root.querySelectorAll('[part~="answer"] .markdown')) {
      const dangers = dangersIn(answer);
      if (dangers.length) problems.push(`answer ${JSON.stringify(payload)} → ${dangers.join(', ')}`);
    }
    // Anywhere in the element: nothing executable, no script URL, no remote resource.
    for (const element of root.querySelectorAll('*')) {
      if (element.matches('script, img, svg, math, iframe, object, embed, style, link, meta, base')) {
        problems.push(`${JSON.stringify(payload)} made a <${element.localName}>`);
      }
      for (const attribute of element.attributes) {
        // eslint-disable-next-line no-control-regex
        const value = attribute.value.replace(/[\s\u0000-\u001f]/g, '').toLowerCase();
        if (attribute.name.startsWith('on'))
          problems.push(`${JSON.stringify(payload)} → [${attribute.name}]`);
        if (/^(javascript|vbscript|data):/.test(value))
          problems.push(`${JSON.stringify(payload)} → [${attribute.name}=${value}]`);
      }
    }
    // The question and the professional's name are shown as the text they are.
    if (!root.textContent!.includes(payload.trim().slice(0, 20)))
      problems.push(`${JSON.stringify(payload)} not shown as text`);
  }
  await eventsHadTheirChance(
    [...holder.querySelectorAll('consult-thread')].map((thread) => thread.shadowRoot!),
  );
  return problems;
}

// One test per class of attack, each in a session of its own: a test's time does not grow with
// the whole list of payloads.
describe('<consult-thread> against XSS payloads (S11)', () => {
  for (const [kind, payloads] of Object.entries(XSS_PAYLOADS_BY_CLASS)) {
    it(`shows ${payloads.length} ${kind} payloads as an answer, a question and a professional record, and runs none`, async () => {
      const { inSession } = await import('./support/backend.js');
      const trap = trapDialogs();
      (window as { __xss?: number }).__xss = 0;
      try {
        const { session } = await inSession<HTMLElement>(html`<div id="threads"></div>`);
        const problems = await threadProblems(session.querySelector('#threads')!, payloads);
        expect(problems).to.deep.equal([]);
        expect(trap.calls).to.deep.equal([]);
        expect((window as { __xss?: number }).__xss).to.equal(0);
      } finally {
        trap.restore();
      }
    });
  }
});
