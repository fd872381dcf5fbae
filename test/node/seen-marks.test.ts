/**
 * The seen-marks' writes to sessionStorage, in Node with a counting storage and a fake client: a
 * list of 1,000 read at once is written once, not once per consultation (which made a long list
 * quadratic), and nothing queued outlives a sign-out or a change of member. And the marks told to
 * the proxy: one it refused is not sent again, one that could not reach it is. And the unread
 * list of a long history, worked out once per change rather than once per look.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { ConsultationView, MemberView } from '../../src/client/browser-types.js';
import { ApiError } from '../../src/client/errors.js';
import { MemberState, type MemberClient } from '../../src/session/member-state.js';
import { SeenMarks } from '../../src/session/seen-marks.js';

/** sessionStorage in memory, counting every write. */
class CountingStorage implements Storage {
  readonly items = new Map<string, string>();
  writes = 0;
  get length(): number {
    return this.items.size;
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.writes++;
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  clear(): void {
    this.items.clear();
  }
}

const MEMBER: MemberView = { id: 'usr_many', language: 'en', userStatus: 'activeUser' };

const consultation = (i: number, answered: boolean): ConsultationView => ({
  consultationId: `cns_${i}`,
  userId: MEMBER.id,
  status: answered ? 'resolved' : 'open',
  createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
  questions: [{ question: `Question ${i}`, ...(answered ? { answer: `Answer ${i}` } : {}) }],
});

/** A client whose case history holds `count` consultations, half of them answered. */
function clientWith(count: number): MemberClient {
  const list = Array.from({ length: count }, (_, i) => consultation(i, i % 2 === 0));
  const unused = () => Promise.reject(new Error('not used here'));
  return {
    getCaseHistory: () => Promise.resolve(list),
    getConsultation: unused,
    createConsultation: unused,
    addConsultationFollowUp: unused,
    getUserSubscriptions: unused,
    getSubscriptionHistory: unused,
    createPrescriptionRequest: unused,
    startNavigatorConversation: unused,
    sendNavigatorMessage: unused,
  } as MemberClient;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the seen-marks in storage', () => {
  let storage: CountingStorage;

  beforeEach(() => {
    storage = new CountingStorage();
    Object.defineProperty(globalThis, 'sessionStorage', { value: storage, configurable: true });
  });
  afterEach(() => {
    Reflect.deleteProperty(globalThis, 'sessionStorage');
  });

  it('writes a list of 1,000 consultations once, not once per consultation', async () => {
    const state = new MemberState({ client: () => clientWith(1000), visible: () => false });
    state.setMember(MEMBER);
    await state.loadHistory();
    await turn();
    assert.equal(state.consultations.length, 1000);
    assert.ok(storage.writes <= 2, `one write per batch, not per consultation: ${storage.writes} writes`);
    // What was written is the whole record: a reload reads back every consultation's arrival.
    const stored = JSON.parse(storage.getItem(`consult-elements:seen:${MEMBER.id}`)!) as {
      since?: number;
      arrivals: Record<string, unknown>;
    };
    assert.equal(Object.keys(stored.arrivals).length, 1000);
    assert.equal(typeof stored.since, 'number');
    const reloaded = new SeenMarks(MEMBER.id);
    assert.equal(reloaded.hasUnseen(consultation(0, true)), false, 'the first list read counts as seen');
    state.dispose();
  });

  it('writes nothing of a member once they signed out, even a change made just before', async () => {
    const state = new MemberState({ client: () => clientWith(10), visible: () => false });
    state.setMember(MEMBER);
    await state.loadHistory();
    await turn();
    state.markSeen('cns_0');
    state.apply({ ...consultation(1, true), status: 'resolved' });
    state.signOut();
    await turn();
    assert.equal(storage.length, 0, 'the marks are gone, and no queued write brings them back');
    state.dispose();
  });

  it('keeps no member’s marks when another signs in in the same turn as a change of theirs', async () => {
    const state = new MemberState({ client: () => clientWith(3), visible: () => false });
    state.setMember(MEMBER);
    await state.loadHistory();
    state.apply({ ...consultation(1, true), status: 'resolved' });
    state.setMember({ ...MEMBER, id: 'usr_other' });
    await turn();
    assert.equal(storage.getItem(`consult-elements:seen:${MEMBER.id}`), null);
    state.dispose();
  });
});

describe('the unread list', () => {
  it('of 1,000 consultations is worked out again when a record or a mark changes, not each time it is looked at', async () => {
    const hasUnseen = SeenMarks.prototype.hasUnseen;
    let checked = 0;
    SeenMarks.prototype.hasUnseen = function (this: SeenMarks, c: ConsultationView) {
      checked++;
      return hasUnseen.call(this, c);
    };
    const state = new MemberState({ client: () => clientWith(1000), visible: () => false });
    try {
      state.setMember(MEMBER);
      await state.loadHistory();
      await turn();
      checked = 0;
      // The session and every list look at it with each change while a page loads.
      for (let look = 0; look < 5; look++) assert.deepEqual(state.unread, []);
      assert.ok(checked <= 1000, `one pass over the list for five looks: ${checked} checks`);

      // An answer arrives for a question the first list held unanswered: it is new.
      checked = 0;
      state.apply({ ...consultation(1, true), status: 'resolved' });
      assert.deepEqual(state.unread, ['cns_1']);
      assert.deepEqual(state.unread, ['cns_1']);
      assert.ok(checked >= 1 && checked <= 1000, `worked out again once: ${checked} checks`);

      // Seen: no longer new. And what a caller does to the list it got changes nothing.
      state.markSeen('cns_1');
      state.unread.push('cns_2');
      assert.deepEqual(state.unread, []);
    } finally {
      SeenMarks.prototype.hasUnseen = hasUnseen;
      state.dispose();
    }
  });
});

describe('the proxy’s word merged with the tab’s', () => {
  const answered = (times?: ConsultationView['times'], seenAnswers?: number): ConsultationView => ({
    ...consultation(7, true),
    questions: [{ question: 'Q1', answer: 'A1' }, { question: 'Q2' }],
    ...(times ? { times } : {}),
    ...(seenAnswers === undefined ? {} : { seenAnswers }),
  });

  it('an answer the proxy counts unseen is new, even in a tab whose first list held it', () => {
    const marks = new SeenMarks();
    const away = answered(undefined, 0);
    assert.equal(marks.hasUnseen(away), true, 'known unseen before any list was read');
    marks.baseline([away]);
    assert.equal(marks.hasUnseen(away), true, 'the first list read does not hide it');
    assert.equal(marks.hasUnseen(answered(undefined, 1)), false, 'read on another tab or device');
    // What the proxy does not know of keeps the tab's rule: the first list counts as seen.
    const before = answered();
    assert.equal(new SeenMarks().hasUnseen(before), false);
    const fresh = new SeenMarks();
    fresh.baseline([before]);
    assert.equal(fresh.hasUnseen(before), false);
  });

  it('the higher count wins: a read here before the proxy heard of it stays read', () => {
    const marks = new SeenMarks();
    marks.mark(answered(undefined, 0));
    assert.equal(marks.hasUnseen(answered(undefined, 0)), false);
    assert.equal(marks.seenHere('cns_7'), 1);
  });

  it('times: the proxy’s where it saw them, else the tab’s, and none invented', () => {
    const marks = new SeenMarks();
    const sent = '2026-03-01T10:00:00.000Z';
    const arrived = '2026-03-01T11:30:00.000Z';
    const c = answered({
      questions: [sent, '2026-03-01T12:00:00.000Z', null],
      answers: [arrived, null, null],
    });
    marks.arrived(c, false);
    const times = marks.times(c);
    assert.deepEqual(times.questions, [c.createdAt, '2026-03-01T12:00:00.000Z'], 'the first from the case');
    assert.deepEqual(times.answers, [arrived, undefined], 'no answer, no time');
    const unknown = answered();
    assert.deepEqual(new SeenMarks().times(unknown), {
      questions: [unknown.createdAt, undefined],
      answers: [undefined, undefined],
    });
  });
});

describe('the read marks told to the proxy', () => {
  /**
   * A consultation with one answer the proxy keeps read marks for, marked seen twice in this tab;
   * the proxy's first answer to the mark is `failure`. Gives the marks sent.
   */
  async function markedTwice(failure: ApiError): Promise<number[]> {
    const record: ConsultationView = { ...consultation(3, true), seenAnswers: 0 };
    const sent: number[] = [];
    const client = {
      ...clientWith(0),
      markConsultationSeen: (consultationId: string, answers: number) => {
        sent.push(answers);
        return sent.length === 1 ? Promise.reject(failure) : Promise.resolve({ consultationId, answers });
      },
    } as MemberClient;
    const state = new MemberState({ client: () => client, visible: () => false });
    state.setMember(MEMBER);
    state.apply(record);
    state.markSeen(record.consultationId);
    await turn();
    state.markSeen(record.consultationId);
    await turn();
    state.dispose();
    return sent;
  }

  const failure = (status: number, code: string) =>
    new ApiError({ kind: 'http', status, code, title: code, operation: 'markConsultationSeen' });

  it('does not send again a mark the proxy refused: it would be refused again', async () => {
    assert.deepEqual(await markedTwice(failure(409, 'answers_seen_already')), [1]);
  });

  it('sends again a mark that could not reach the proxy', async () => {
    assert.deepEqual(await markedTwice(failure(503, 'service_unavailable')), [1, 1]);
  });
});
