/**
 * <consult-access>: the member's plan in words, against the in-page sandbox behind the real proxy:
 * active, ending soon, renewed with its history, canceled, run out, none, an inactive account, a
 * load error with a retry; Arabic; and nothing of a member's plan left after sign-out.
 */
import { expect, html } from '@open-wc/testing';
import { ConsultAccess } from '../../src/elements/consult-access/consult-access.js';
import { createDemoBackend, type DemoBackend } from '../../src/sandbox/demo-backend.js';
import { inSession, shadowText, withFailures } from './support/backend.js';
import { waitUntil } from './support/elements.js';

ConsultAccess.define('consult-access');

const summary = (element: Element) => element.shadowRoot!.querySelector<HTMLElement>('[part~=summary]');
const stateOf = (element: Element) => summary(element)?.dataset['state'];

async function access(member: string, prepare?: (backend: DemoBackend) => Promise<void>, attributes = '') {
  const fixture = await inSession<ConsultAccess>(
    attributes
      ? html`<consult-access expiring-days=${attributes}></consult-access>`
      : html`<consult-access><p slot="none">Join Northwind Plus to ask our doctors.</p></consult-access>`,
    {
      member,
      backendOptions: {},
    },
  );
  if (prepare) {
    await prepare(fixture.backend);
    await fixture.element.reload();
  }
  await waitUntil(() => stateOf(fixture.element), 'the plan shows', { timeout: 5000 });
  return fixture;
}

const control = (backend: DemoBackend, path: string, body: unknown = {}) =>
  backend.sandbox.fetch(`/_sandbox${path}`, { method: 'POST', body: JSON.stringify(body) });

describe('<consult-access>', () => {
  it('shows a renewed plan, until when, and the plan it renewed', async () => {
    const { element } = await access('alex');
    expect(stateOf(element)).to.equal('active');
    expect(shadowText(element)).to.contain('Questions to a doctor are included in your plan');
    expect(shadowText(element)).to.match(/Your plan runs until \w+ \d+, \d{4}/);
    const history = element.shadowRoot!.querySelector('[part~=history]')!;
    expect(history.textContent).to.contain('Renewed from');
    expect(history.querySelectorAll('li')).to.have.length(1);
    // The renewal is part of the plan's card: in it, and drawn within its box.
    const card = summary(element)!;
    const box = card.getBoundingClientRect();
    expect(box.width * box.height, 'the card is drawn').to.be.greaterThan(0);
    const label = [...element.shadowRoot!.querySelectorAll('p')].find((p) =>
      p.textContent!.includes('Renewed from'),
    )!;
    for (const line of [label, ...history.querySelectorAll('li')]) {
      const words = line.textContent!.trim();
      expect(card.contains(line), `"${words}" is in the plan's card`).to.equal(true);
      const { top, right, bottom, left } = line.getBoundingClientRect();
      expect(
        top >= box.top && bottom <= box.bottom && left >= box.left && right <= box.right,
        `"${words}" is drawn inside the card`,
      ).to.equal(true);
    }
    const slot = element.shadowRoot!.querySelector<HTMLSlotElement>('slot[name=none]');
    expect(slot, 'no offer to a member who has a plan').to.equal(null);
    await expect(element).to.be.accessible();
  });

  it('says a plan is ending soon, with the days left', async () => {
    const { element } = await access('alex', undefined, '400');
    expect(stateOf(element)).to.equal('expiring');
    expect(shadowText(element)).to.match(/Your plan ends on .+, in \d+ days\./);
    await expect(element).to.be.accessible();
  });

  it('says a canceled plan is canceled, and shows the partner’s offer', async () => {
    const { element } = await access('sam');
    expect(stateOf(element)).to.equal('canceled');
    expect(shadowText(element)).to.contain('Questions to a doctor are not included in your plan');
    expect(shadowText(element)).to.match(/Your plan was canceled on/);
    const slot = element.shadowRoot!.querySelector<HTMLSlotElement>('slot[name=none]')!;
    expect(slot.assignedElements()[0]!.textContent).to.contain('Join Northwind Plus');
    await expect(element).to.be.accessible();
  });

  it('says a plan ran out when it expired', async () => {
    const { element } = await access('noor', (backend) =>
      control(backend, '/subscriptions/sub_demo_noor_2026/expire').then(() => undefined),
    );
    expect(stateOf(element)).to.equal('expired');
    expect(shadowText(element)).to.match(/انتهت خطتك في/);
    expect(element.shadowRoot!.querySelector('[part~=base]')!.getAttribute('dir')).to.equal('rtl');
    await expect(element).to.be.accessible();
  });

  it('says when a member has no plan at all', async () => {
    const { element, backend } = await access('alex');
    for (const id of ['sub_demo_alex_2026', 'sub_demo_alex_2025'])
      backend.sandbox.state.subscriptions.delete(id);
    await element.reload();
    await waitUntil(() => stateOf(element) === 'none', 'no plan');
    expect(shadowText(element)).to.contain('You do not have a plan that includes them yet.');
    await expect(element).to.be.accessible();
  });

  it('says an inactive account is inactive', async () => {
    const { element, session, backend } = await access('alex');
    await control(backend, '/users/usr_demo_alex/status', { status: 'deactivatedUser' });
    // The member's status comes with sign-in: sign in again.
    session.manager.configure({ signIn: backend.signInAs('alex') });
    await session.manager.ready();
    await waitUntil(() => stateOf(element) === 'inactive', 'inactive', { timeout: 5000 });
    expect(shadowText(element)).to.contain('Your account is not active');
    await expect(element).to.be.accessible();
  });

  it('offers to try again when the plan cannot be read, and then shows it', async () => {
    const broken = withFailures(createDemoBackend());
    const { session } = await inSession<HTMLElement>(html`<span></span>`, { backend: broken.backend });
    broken.fail(true);
    const element = document.createElement('consult-access') as ConsultAccess;
    session.append(element);
    await waitUntil(() => element.shadowRoot!.querySelector('[part~=retry-button]'), 'the error shows', {
      timeout: 8000,
    });
    expect(shadowText(element)).to.contain('We could not check your plan.');
    await expect(element).to.be.accessible();
    broken.fail(false);
    element.shadowRoot!.querySelector<HTMLButtonElement>('[part~=retry-button]')!.click();
    await waitUntil(() => stateOf(element) === 'active', 'the plan shows after trying again', {
      timeout: 5000,
    });
  });

  it('keeps nothing of the member’s plan after sign-out', async () => {
    const { element, session } = await access('alex');
    expect(shadowText(element)).to.contain('Renewed from');
    session.signOut();
    await element.updateComplete;
    expect(shadowText(element)).not.to.contain('Renewed from');
    expect(shadowText(element)).not.to.match(/runs until/);
  });
});
