/**
 * How answers read: numbered steps keep their numbers, nothing an answer says vanishes silently,
 * links show where they go, bidirectional controls cannot disguise a file, and long content never
 * makes the page scroll sideways on a phone.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import type { ConsultationView } from '../../src/client/browser-types.js';
import { ConsultThread } from '../../src/elements/consult-thread/consult-thread.js';
import { loadLanguage } from '../../src/elements/shared/localize.js';
import { renderMarkdown } from '../../src/elements/shared/markdown.js';
import { waitUntil } from './support/elements.js';

ConsultThread.define('consult-thread');

const RLO = '\u202E';

async function rendered(markdown: string, language?: string): Promise<HTMLElement> {
  const holder = document.createElement('div');
  holder.append(await renderMarkdown(markdown, language));
  return holder;
}

function resolved(answer: string, attachments: string[] = []): ConsultationView {
  return {
    consultationId: 'cns_answers',
    userId: 'usr_answers',
    status: 'resolved',
    createdAt: '2026-11-01T09:00:00Z',
    questions: [
      {
        question: 'How should I take it?',
        answer,
        attachments,
        professional: { name: 'Dr Ana Ruiz', title: 'GP', specialties: [], licenses: [] },
      },
    ],
  } as ConsultationView;
}

async function threadShowing(consultation: ConsultationView): Promise<ConsultThread> {
  const thread = await fixture<ConsultThread>(html`
    <consult-thread
      .consultation=${consultation}
      consultation-id=${consultation.consultationId}
    ></consult-thread>
  `);
  await thread.updateComplete;
  return thread;
}

describe('answers as members read them', () => {
  it('keeps the number a doctor’s list starts at', async () => {
    const holder = await rendered('2. Take it with food.\n3. Drink water.');
    expect(holder.querySelector('ol')?.getAttribute('start')).to.equal('2');
    expect(holder.querySelector('ol')?.start).to.equal(2);
  });

  it('shows raw HTML as the text it is, never as markup', async () => {
    const holder = await rendered('Use <b>only</b> this:\n\n<div style="color:red">red</div>');
    expect(holder.querySelector('b, div')).to.equal(null);
    expect(holder.textContent).to.contain('<b>only</b>');
    expect(holder.textContent).to.contain('<div style="color:red">red</div>');
  });

  it('leaves an image out, loads nothing, and says so with its alt text', async () => {
    const requested: string[] = [];
    // An image asked for after the answer is in the page: once it is seen, so would the answer's be.
    const later = `/later-image-${Date.now()}.png`;
    let laterSeen = false;
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.name.includes('pixel.png')) requested.push(entry.name);
        if (entry.name.endsWith(later)) laterSeen = true;
      }
    });
    observer.observe({ type: 'resource', buffered: true });
    const holder = await rendered('See ![rash on the forearm](https://images.example.org/pixel.png).');
    document.body.append(holder);
    new Image().src = later;
    await waitUntil(() => laterSeen, 'a later image request is seen', { timeout: 5000 });
    observer.disconnect();
    holder.remove();
    expect(holder.querySelector('img')).to.equal(null);
    expect(holder.querySelector('em')?.textContent).to.equal('Image not shown: rash on the forearm');
    expect(requested).to.deep.equal([]);
  });

  it('says an image was left out in the member’s language', async () => {
    await loadLanguage('de');
    const holder = await rendered('![Ausschlag](https://images.example.org/pixel.png)', 'de');
    expect(holder.textContent!.trim()).to.equal('Bild nicht angezeigt: Ausschlag');
  });

  it('shows http and www links as text with their address', async () => {
    const holder = await rendered(
      'Read [this leaflet](http://leaflets.example.org/a.pdf) or www.example.org, not [that](javascript:alert(1)).',
    );
    expect(holder.querySelector('a')).to.equal(null);
    expect(holder.textContent!.trim()).to.equal(
      'Read this leaflet (http://leaflets.example.org/a.pdf) or www.example.org, not that (javascript:alert(1)).',
    );
  });

  it('shows the host of a link whose words are not its address', async () => {
    const holder = await rendered(
      '[NHS advice](https://www.nhs.uk/conditions/fever/) and https://www.nhs.uk/ and [mail](mailto:gp@example.org)',
    );
    const [advice, bare, mail] = [...holder.querySelectorAll('a')];
    expect(advice!.textContent).to.equal('NHS advice');
    expect(advice!.nextSibling?.textContent).to.match(/^ \(www\.nhs\.uk\)/);
    expect(bare!.textContent).to.equal('https://www.nhs.uk/');
    expect(bare!.nextSibling?.textContent).not.to.contain('(www.nhs.uk)');
    expect(mail!.getAttribute('href')).to.equal('mailto:gp@example.org');
    expect(holder.textContent!.trim()).to.equal('NHS advice (www.nhs.uk) and https://www.nhs.uk/ and mail');
  });

  it('neutralizes bidirectional controls in link text', async () => {
    const holder = await rendered(`[report${RLO}fdp.exe](https://files.example.org/x)`);
    expect(holder.querySelector('a')!.textContent).to.equal('reportfdp.exe');
  });

  it('shows attachments by file name and host, with bidirectional controls neutralized', async () => {
    const thread = await threadShowing(
      resolved('See the leaflet.', [
        'https://files.example.org/results%E2%80%AEfdp.exe',
        'https://cdn.example.net/leaflet.pdf',
        'http://insecure.example.org/x.pdf',
      ]),
    );
    const items = [...thread.shadowRoot!.querySelectorAll('.attachments li')];
    expect(items.map((item) => item.querySelector('a')!.textContent)).to.deep.equal([
      'resultsfdp.exe',
      'leaflet.pdf',
    ]);
    expect(items.map((item) => item.querySelector('.host')!.textContent)).to.deep.equal([
      'files.example.org',
      'cdn.example.net',
    ]);
    expect(thread.shadowRoot!.textContent).not.to.contain(RLO);
    await expect(thread).to.be.accessible();
  });

  it('gives member and doctor text its own direction, in an Arabic page and in an English one', async () => {
    await loadLanguage('ar');
    const english = resolved('Take **one** tablet with water.');
    const arabicThread = await fixture<ConsultThread>(html`
      <consult-thread
        lang="ar"
        .consultation=${english}
        consultation-id=${english.consultationId}
      ></consult-thread>
    `);
    await arabicThread.updateComplete;
    const root = arabicThread.shadowRoot!;
    expect(root.querySelector('[part=base]')!.matches(':dir(rtl)')).to.equal(true);
    expect(
      root.querySelector('[part=answer]')!.matches(':dir(ltr)'),
      'an English answer reads left to right',
    ).to.equal(true);
    expect(root.querySelector('[part=question] .text')!.matches(':dir(ltr)')).to.equal(true);
    expect(root.querySelector('[part=professional] .name')!.matches(':dir(ltr)')).to.equal(true);

    const arabic = {
      ...english,
      questions: [{ ...english.questions[0]!, question: 'هل يمكنني تناول الدواء مع الطعام؟' }],
    };
    const englishThread = await threadShowing(arabic);
    expect(englishThread.shadowRoot!.querySelector('[part=question] .text')!.matches(':dir(rtl)')).to.equal(
      true,
    );
    expect(englishThread.shadowRoot!.querySelector('#followup-input')!.getAttribute('dir')).to.equal('auto');
    await expect(arabicThread).to.be.accessible();
  });

  describe('at 375 px wide', () => {
    before(() => setViewport({ width: 375, height: 740 }));
    after(() => setViewport({ width: 800, height: 600 }));

    it('wraps long words and URLs and scrolls code inside the answer, never the page', async () => {
      const longLine = `const dose = ${'x'.repeat(300)};`;
      const longUrl = `https://www.example.org/${'very-long-path-segment-'.repeat(12)}end`;
      const thread = await threadShowing(
        resolved(
          `Take ${'Paracetamolhydrochloridtabletten'.repeat(4)} as written.\n\n${longUrl}\n\n\`\`\`\n${longLine}\n\`\`\`\n\n| a | b |\n|---|---|\n| ${'y'.repeat(200)} | z |`,
          [`https://files.example.org/${'n'.repeat(180)}.pdf`],
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      const root = document.scrollingElement!;
      expect(root.scrollWidth, 'the page does not scroll sideways').to.be.at.most(root.clientWidth);
      expect(thread.scrollWidth).to.be.at.most(thread.clientWidth);
      const pre = thread.shadowRoot!.querySelector('pre')!;
      expect(pre.scrollWidth, 'the code scrolls').to.be.greaterThan(pre.clientWidth);
      expect(getComputedStyle(pre).overflowX).to.equal('auto');
      await expect(thread).to.be.accessible();
    });
  });
});
