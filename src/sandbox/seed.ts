/**
 * The demo data `POST /_sandbox/reset` restores. Ids are stable so the demo and the docs can name
 * them; times are relative to the sandbox clock at reset.
 */
import { PROFESSIONALS } from './professionals.js';
import type { StoredSubscription, StoredUser } from './accounts.js';
import type { SandboxState, StoredConsultation } from './state.js';

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

export const DEMO_USER_IDS = { alex: 'usr_demo_alex', sam: 'usr_demo_sam', noor: 'usr_demo_noor' } as const;

const [okafor, becker, martinez, alMansouri] = PROFESSIONALS as [
  (typeof PROFESSIONALS)[number],
  (typeof PROFESSIONALS)[number],
  (typeof PROFESSIONALS)[number],
  (typeof PROFESSIONALS)[number],
];

export function seedDemoData(state: SandboxState): void {
  const now = state.clock.now();
  const at = (offsetMs: number): string => new Date(now + offsetMs).toISOString();

  const users: StoredUser[] = [
    {
      id: DEMO_USER_IDS.alex,
      uniqueId: 'alex',
      firstName: 'Alex',
      lastName: 'Morgan',
      email: 'alex.morgan@example.com',
      phone: '+447700900123',
      dateOfBirth: '1988-04-12',
      gender: 'other',
      language: 'en',
      country: 'GB',
      location: 'GB',
      origin: 'GB',
      physicianCountry: 'GB',
      partnerName: state.partnerName,
      associatedAccounts: 2,
      userStatus: 'activeUser',
      shouldNotify: true,
    },
    {
      id: DEMO_USER_IDS.sam,
      uniqueId: 'sam',
      firstName: 'Sam',
      lastName: 'Rivera',
      email: 'sam.rivera@example.com',
      phone: '+14155550142',
      dateOfBirth: '1994-09-30',
      gender: 'male',
      language: 'en',
      country: 'US',
      location: 'US',
      origin: 'MX',
      physicianCountry: 'US',
      partnerName: state.partnerName,
      userStatus: 'activeUser',
      shouldNotify: false,
    },
    {
      id: DEMO_USER_IDS.noor,
      uniqueId: 'noor',
      firstName: 'نور',
      lastName: 'حداد',
      email: 'noor.haddad@example.com',
      phone: '+971501234567',
      dateOfBirth: '1979-01-05',
      gender: 'female',
      language: 'ar',
      country: 'JO',
      location: 'AE',
      origin: 'JO',
      physicianCountry: 'AE',
      partnerName: state.partnerName,
      userStatus: 'activeUser',
      shouldNotify: true,
    },
  ];
  for (const user of users) state.users.set(user.id, user);

  const subscriptions: StoredSubscription[] = [
    // Alex renewed: last year's subscription expired, this year's carries renewFrom.
    {
      subscriptionId: 'sub_demo_alex_2025',
      userId: DEMO_USER_IDS.alex,
      start: now - 425 * DAY,
      end: now - 60 * DAY,
      createdAt: at(-425 * DAY),
    },
    {
      subscriptionId: 'sub_demo_alex_2026',
      userId: DEMO_USER_IDS.alex,
      start: now - 60 * DAY,
      end: now + 305 * DAY,
      createdAt: at(-60 * DAY),
      renewFrom: 'sub_demo_alex_2025',
    },
    // Sam's only subscription was canceled before it ran out: no active subscription.
    {
      subscriptionId: 'sub_demo_sam_2026',
      userId: DEMO_USER_IDS.sam,
      start: now - 120 * DAY,
      end: now + 245 * DAY,
      createdAt: at(-120 * DAY),
      canceledAt: at(-20 * DAY),
    },
    {
      subscriptionId: 'sub_demo_noor_2026',
      userId: DEMO_USER_IDS.noor,
      start: now - 30 * DAY,
      end: now + 335 * DAY,
      createdAt: at(-30 * DAY),
    },
  ];
  for (const s of subscriptions) state.subscriptions.set(s.subscriptionId, s);

  const consultations: StoredConsultation[] = [
    {
      consultationId: 'cns_demo_alex_sleep',
      userId: DEMO_USER_IDS.alex,
      status: 'closed',
      createdAt: at(-95 * DAY),
      questions: [
        {
          question:
            'I keep waking up at 4am and cannot get back to sleep. Is there anything I can try before seeing someone?',
          answer: `Early waking is very common, and small changes often help within two to three weeks:

- **Get up at the same time every day**, including weekends, even after a bad night.
- **If you are awake for more than 20 minutes, get up** and do something calm in dim light until you feel sleepy.
- **Cut caffeine after midday** and keep alcohol for the occasional evening: it makes sleep lighter in the early hours.

If low mood, worry or snoring come with it, or nothing changes in a month, please book an appointment so we can look at the causes. The [NHS sleep self-help guide](https://www.nhs.uk/every-mind-matters/mental-health-issues/sleep/) is a good companion.`,
          professional: okafor,
        },
      ],
    },
    {
      consultationId: 'cns_demo_alex_rash',
      userId: DEMO_USER_IDS.alex,
      status: 'resolved',
      createdAt: at(-40 * DAY),
      questions: [
        {
          question:
            'I have an itchy, dry patch on my elbow that has been there for three weeks. What could help?',
          answer: `Thank you for the detailed description. A dry, itchy patch like this is often a form of **eczema** flaring up, and it usually responds to simple care:

1. Use a thick, fragrance-free emollient at least twice a day, and after washing.
2. Swap soap for a soap substitute.
3. Try not to scratch; keep nails short and cover the area at night if needed.

If it has not improved after two weeks of this, a pharmacist can suggest a mild steroid cream. See a doctor if it spreads, weeps, crusts or becomes painful. More: [British Association of Dermatologists](https://www.bad.org.uk/patient-information-leaflets).`,
          professional: martinez,
        },
        {
          question: 'Thanks! Is it safe to use the cream on my face too?',
          answer: `Emollients are safe on the face. **Steroid creams are different**: only use one on the face if a doctor or pharmacist has told you to, and for the shortest time, because facial skin is thinner.

- Choose a lighter, non-greasy emollient for the face.
- Patch-test a new product on a small area first.`,
          attachments: ['https://files.example.org/leaflets/emollient-guide.pdf'],
          professional: martinez,
        },
      ],
    },
    {
      consultationId: 'cns_demo_alex_bp',
      userId: DEMO_USER_IDS.alex,
      status: 'resolved',
      createdAt: at(-12 * DAY),
      questions: [
        {
          question: 'My home blood pressure readings are around 142/91. Should I be worried?',
          answer: `Readings around 142/91 at home are **above the healthy range** (below 135/85 at home), but one week of readings is not a diagnosis. Here is what I suggest:

1. Measure twice each morning and evening for 7 days, seated and rested for 5 minutes first.
2. Write the readings down and bring them to your GP.
3. Meanwhile, reduce salt, limit alcohol, and keep active.

If you get a severe headache, chest pain or shortness of breath with a high reading, seek urgent care. The [British Heart Foundation](https://www.bhf.org.uk/informationsupport/risk-factors/high-blood-pressure) explains home monitoring well.`,
          professional: becker,
        },
      ],
    },
    {
      consultationId: 'cns_demo_alex_vitamin',
      userId: DEMO_USER_IDS.alex,
      status: 'open',
      createdAt: at(-2 * HOUR),
      questions: [{ question: 'Should I take a vitamin D supplement during winter?' }],
    },
    {
      consultationId: 'cns_demo_noor_fever',
      userId: DEMO_USER_IDS.noor,
      status: 'resolved',
      createdAt: at(-6 * DAY),
      questions: [
        {
          question: 'ابني عمره ٤ سنوات وحرارته ٣٨٫٥ منذ يوم. ماذا أفعل؟',
          answer: `شكرًا لسؤالك. الحمى عند الأطفال شائعة وغالبًا ما تكون بسبب عدوى فيروسية بسيطة:

- **أعطِه سوائل بكميات صغيرة ومتكررة.**
- يمكن إعطاء الباراسيتامول بالجرعة المناسبة لعمره.
- راقب نشاطه ونومه وعدد مرات التبول.

اتصلي بالطوارئ إذا كان نعسانًا بشكل غير معتاد، أو ظهر طفح جلدي لا يختفي عند الضغط، أو صعوبة في التنفس. لمزيد من المعلومات: [منظمة الصحة العالمية](https://www.who.int/ar).`,
          professional: alMansouri,
        },
      ],
    },
  ];
  for (const c of consultations) state.consultations.set(c.consultationId, c);
}
