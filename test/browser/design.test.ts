/**
 * The look members trust, checked the way axe and a stylesheet can be: every element in its main
 * states, light and dark, English and Arabic, passes axe (contrast included); notices differ by
 * kind; the navigator is tighter on a narrow screen.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { TemplateResult } from 'lit';
import { CaseHistory } from '../../src/elements/case-history/case-history.js';
import { ConsultForm } from '../../src/elements/consult-form/consult-form.js';
import { ConsultThread } from '../../src/elements/consult-thread/consult-thread.js';
import { NavigatorChat } from '../../src/elements/navigator-chat/navigator-chat.js';
import { inSession, shadowText } from './support/backend.js';
import { waitUntil } from './support/elements.js';

CaseHistory.define('case-history');
ConsultForm.define('consult-form');
ConsultThread.define('consult-thread');
NavigatorChat.define('navigator-chat');

const shadow = (element: Element, selector: string) =>
  element.shadowRoot!.querySelector<HTMLElement>(selector);

interface State {
  name: string;
  content: (theme: string, lang: string) => TemplateResult;
  ready: (element: Element) => boolean;
}

const STATES: State[] = [
  {
    name: 'the question form',
    content: (theme, lang) => html`<consult-form theme=${theme} lang=${lang}></consult-form>`,
    ready: (e) => shadow(e, '[part~=submit-button]')?.getAttribute('aria-disabled') === 'false',
  },
  {
    name: 'the case list',
    content: (theme, lang) => html`<case-history theme=${theme} lang=${lang}></case-history>`,
    ready: (e) => (e.shadowRoot?.querySelectorAll('[part~=item]').length ?? 0) > 0,
  },
  {
    name: 'an answered thread with its professional',
    content: (theme, lang) =>
      html`<consult-thread
        theme=${theme}
        lang=${lang}
        consultation-id="cns_demo_alex_rash"
      ></consult-thread>`,
    ready: (e) => Boolean(shadow(e, '[part~=answer] strong') && shadow(e, '[part~=professional]')),
  },
  {
    name: 'a consultation that does not exist',
    content: (theme, lang) =>
      html`<consult-thread theme=${theme} lang=${lang} consultation-id="cns_missing"></consult-thread>`,
    ready: (e) => Boolean(shadow(e, '[part~=notice]')),
  },
  {
    name: 'the navigator',
    content: (theme, lang) => html`<navigator-chat theme=${theme} lang=${lang}></navigator-chat>`,
    ready: (e) => Boolean(shadow(e, '[part~=input]')),
  },
];

describe('the elements’ design', () => {
  for (const theme of ['light', 'dark']) {
    for (const lang of ['en', 'ar']) {
      for (const state of STATES) {
        it(`${state.name}, ${theme}, ${lang}: passes axe, contrast included`, async () => {
          const { element } = await inSession<HTMLElement>(state.content(theme, lang));
          await waitUntil(() => state.ready(element), `${state.name} renders`, { timeout: 5000 });
          const base = shadow(element, '[part~=base]') ?? element;
          expect(getComputedStyle(base).direction).to.equal(lang === 'ar' ? 'rtl' : 'ltr');
          await expect(element).to.be.accessible();
        });
      }
    }
  }

  it('paints each element’s own background, but leaves the partner’s content in the session on the page’s', async () => {
    const { session, element } = await inSession<HTMLElement>(
      html`<consult-form theme="dark"></consult-form>`,
    );
    expect(getComputedStyle(session).backgroundColor).to.equal('rgba(0, 0, 0, 0)');
    expect(getComputedStyle(element).backgroundColor).to.equal('rgb(27, 29, 33)');
  });

  it('tells notices apart by kind, with an icon that assistive technology does not read', async () => {
    const element = await fixture<HTMLElement>(html`<consult-thread></consult-thread>`);
    const root = element.shadowRoot!;
    const holder = document.createElement('div');
    for (const kind of ['', 'success', 'warning', 'error']) {
      const notice = document.createElement('p');
      notice.className = `notice ${kind}`.trim();
      notice.textContent = kind || 'info';
      holder.append(notice);
    }
    root.append(holder);
    const [info, success, warning, error] = [...holder.children].map((notice) => ({
      icon: getComputedStyle(notice, '::before').content,
      border: getComputedStyle(notice).borderInlineStartColor,
    }));
    expect(info!.icon).to.equal('"i" / ""');
    expect(success!.icon).to.equal('"✓" / ""');
    expect(warning!.icon).to.equal('"!" / ""');
    expect(error!.icon).to.equal('"!" / ""');
    expect(new Set([info!.border, success!.border, warning!.border, error!.border]).size).to.equal(4);
    holder.remove();
  });

  it('keeps the navigator’s bubbles tighter on a narrow screen', async () => {
    const { element, session } = await inSession<NavigatorChat>(html`<navigator-chat></navigator-chat>`);
    await waitUntil(() => shadow(element, '[part~=input]'), 'the composer shows');
    shadow(element, '[part~=suggestion]')!.click();
    await element.updateComplete;
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => shadowText(element).includes('150 minutes'), 'the reply arrives', {
      timeout: 5000,
    });
    const bubble = () => getComputedStyle(shadow(element, '.message.navigator')!).paddingInlineStart;
    session.style.display = 'block';
    session.style.width = '800px';
    await new Promise(requestAnimationFrame);
    const wide = parseFloat(bubble());
    session.style.width = '320px';
    await new Promise(requestAnimationFrame);
    const narrow = parseFloat(bubble());
    expect(narrow).to.be.lessThan(wide);
  });
});
