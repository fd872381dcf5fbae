/**
 * The proxy's schemas are written with zod/mini (so an edge bundle carries little of zod), and a
 * few of them repeat the sandbox's, which use zod's full API for the OpenAPI document. Each pair
 * must decide alike: the same values accepted, with the same result, and the same field errors in
 * the same words. Without the sandbox's zod loaded, the proxy's messages are still English.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { compile, safeParse, type $ZodType } from 'zod/v4/core';
import { MAX_QUESTION_LENGTH } from '../../src/client/types.js';
import * as proxy from '../../src/proxy/schemas.js';
import * as sandbox from '../../src/server/schemas.js';
import { fieldErrors } from '../../src/server/validation.js';

const run = promisify(execFile);

function decide(schema: $ZodType, value: unknown) {
  const result = safeParse(schema, value);
  return result.success ? { data: result.data as unknown } : { errors: fieldErrors(result.error.issues) };
}

const question = (text: string) => ({ question: text });
const professional = {
  name: 'Dr. Ada Lovelace',
  title: 'General practitioner',
  specialties: ['general'],
  licenses: [{ licenseNumber: 'GB-1', countries: ['GB'] }],
};
const consultation = (questions: unknown[], extra: object = {}) => ({
  consultationId: 'cns_1',
  userId: 'usr_1',
  status: 'resolved',
  createdAt: '2026-01-01T00:00:00.000Z',
  questions,
  ...extra,
});
const message = {
  messageId: 'msg_1',
  role: 'navigator',
  text: 'Rest and drink water.',
  createdAt: '2026-01-01T00:00:00.000Z',
  suggestsDoctor: true,
};

const PAIRS: [string, $ZodType, $ZodType, unknown[]][] = [
  [
    'a follow-up question',
    proxy.BrowserFollowUp,
    sandbox.AddFollowUpBody,
    [
      question('  Is it contagious?  '),
      question(''),
      question('   '),
      question('x'.repeat(MAX_QUESTION_LENGTH)),
      question('x'.repeat(MAX_QUESTION_LENGTH + 1)),
      question(` ${'x'.repeat(MAX_QUESTION_LENGTH)} `),
      { question: 42 },
      { question: 'Fine?', extra: 1 },
      {},
      null,
      'text',
    ],
  ],
  [
    'a consultation',
    proxy.ConsultationView,
    sandbox.ConsultationSchema,
    [
      consultation([{ question: 'Q?', answer: 'A.', professional, attachments: ['a.png'] }]),
      consultation([{ question: 'Q?', professional: { ...professional, profileUrl: 'https://x' } }]),
      consultation([question('1'), question('2'), question('3')], { internalNote: 'dropped' }),
      consultation([question('1'), question('2'), question('3'), question('4')]),
      consultation([{ question: 'Q?', professional: { name: 'Dr. X' } }]),
      consultation([], { status: 'archived' }),
      consultation([{ question: 7 }]),
      { consultationId: 'cns_1' },
    ],
  ],
  [
    'a navigator conversation',
    proxy.ConversationView,
    sandbox.NavigatorConversationSchema,
    [
      { conversationId: 'c1', userId: 'usr_1', createdAt: '2026-01-01', messages: [message] },
      {
        conversationId: 'c1',
        userId: 'usr_1',
        createdAt: '2026-01-01',
        messages: [{ ...message, role: 'x' }],
      },
      { conversationId: 'c1', userId: 'usr_1', createdAt: '2026-01-01', messages: [], topic: 'dropped' },
      { conversationId: 'c1', messages: [] },
    ],
  ],
  [
    'a navigator reply',
    proxy.ReplyView,
    sandbox.NavigatorReplySchema,
    [
      { conversationId: 'c1', messages: [message, { ...message, urgent: false, suggestsDoctor: undefined }] },
      { conversationId: 'c1', messages: [{ ...message, text: 3 }] },
      { messages: 'none' },
    ],
  ],
];

describe('the proxy’s schemas decide as the sandbox’s do', () => {
  for (const [name, mini, full, values] of PAIRS) {
    it(`${name}: the same values pass, with the same result and the same field errors`, () => {
      for (const value of values) {
        assert.deepEqual(decide(mini, value), decide(full, value), JSON.stringify(value).slice(0, 200));
      }
      // Both outcomes occur, so the comparison is not only ever between two successes.
      const outcomes = new Set(values.map((value) => 'data' in decide(mini, value)));
      assert.deepEqual([...outcomes].sort(), [false, true]);
    });
  }

  it('a consultation from a browser takes the questions the service takes', () => {
    for (const questions of [
      ['Q?'],
      [],
      ['1', '2', '3', '4'],
      [' '],
      ['x'.repeat(MAX_QUESTION_LENGTH + 1)],
    ]) {
      const fromBrowser = decide(proxy.BrowserCreateConsultation, { questions });
      const upstream = decide(sandbox.CreateConsultationBody, { userId: 'usr_1', questions });
      assert.deepEqual(
        'errors' in fromBrowser
          ? fromBrowser.errors
          : { questions: (fromBrowser.data as { questions: unknown }).questions },
        'errors' in upstream
          ? upstream.errors
          : { questions: (upstream.data as { questions: unknown }).questions },
        JSON.stringify(questions).slice(0, 80),
      );
    }
  });

  it('says what is wrong in English, with only the proxy’s schemas loaded', async () => {
    const script = `
      const { BrowserStartConversation, BrowserSendMessage } = await import('./src/proxy/schemas.ts');
      const messages = [
        BrowserStartConversation.safeParse({ topic: 'x'.repeat(101) }),
        BrowserSendMessage.safeParse({ conversationId: 7, message: 'Hello' }),
      ].map((result) => result.error.issues[0].message);
      console.log(JSON.stringify(messages));`;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]);
    assert.deepEqual(JSON.parse(stdout), [
      'Too big: expected string to have <=100 characters',
      'Invalid input: expected string, received number',
    ]);
  });
});

describe('the projections decide alike compiled (on Node) and interpreted (elsewhere)', () => {
  // What an upstream could add anywhere, as JSON.parse gives it: unknown fields at every level, and
  // a "__proto__" that JSON makes an own field rather than a prototype.
  const hostile = [
    consultation(
      [{ question: 'Q?', answer: 'A.', professional: { ...professional, home: 'x' }, rating: 5 }],
      {
        assignedTo: { email: 'staff@internal.example' },
      },
    ),
    JSON.parse(
      '{"__proto__":{"userId":"usr_2"},"consultationId":"cns_1","userId":"usr_1","status":"open","createdAt":"x","questions":[]}',
    ) as unknown,
    consultation([{ question: 'Q?', professional: { ...professional, licenses: [{ licenseNumber: 1 }] } }]),
    consultation([{ question: 'Q?', attachments: ['a', 2] }]),
  ];
  const subscription = {
    subscriptionId: 'sub_1',
    userId: 'usr_1',
    active: 1,
    startSubscription: '2026-01-01',
    endSubscription: '2027-01-01',
  };
  const views: [string, $ZodType, unknown[]][] = [
    ...PAIRS.map(([name, mini, , values]): [string, $ZodType, unknown[]] => [name, mini, values]),
    ['a consultation, with what an upstream could add', proxy.ConsultationView, hostile],
    [
      'a member',
      proxy.MemberView,
      [
        { id: 'usr_1', language: 'en', email: 'internal@example.com', phone: '+1 555' },
        { id: 'usr_1', language: 'en', uniqueId: 'u', userStatus: 'activeUser', internalFlag: true },
        { id: 'usr_1', language: 'en', userStatus: 'archived' },
        { id: 7, language: 'en' },
      ],
    ],
    [
      'a subscription',
      proxy.SubscriptionView,
      [
        { ...subscription, internalPrice: 10, renewFrom: '2027-01-01' },
        { ...subscription, active: 2 },
        { ...subscription, canceledAt: 3 },
      ],
    ],
    [
      'a prescription request',
      proxy.PrescriptionView,
      [
        { prescriptionId: 'rx_1', userId: 'usr_1', status: 'pending', createdAt: 'x', internalNote: 'n' },
        { prescriptionId: 'rx_1', userId: 'usr_1', status: 3, createdAt: 'x' },
      ],
    ],
  ];
  for (const [name, schema, values] of views) {
    it(`${name}: the same values pass, with the same fields and nothing more`, () => {
      const compiled = compile(schema);
      for (const value of values) {
        const interpreted = decide(schema, value);
        assert.deepEqual(decide(compiled, value), interpreted, JSON.stringify(value).slice(0, 200));
        if ('data' in interpreted) assert.ok(!JSON.stringify(interpreted.data).includes('internal'));
      }
      // Both outcomes occur, so the comparison is not only ever between two successes.
      assert.deepEqual([...new Set(values.map((value) => 'data' in decide(schema, value)))].sort(), [
        false,
        true,
      ]);
    });
  }
});
