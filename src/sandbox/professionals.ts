import type { Professional } from '../client/types.js';

/** The sandbox's simulated professionals, each with a full record (spec 2.2). */
export const PROFESSIONALS: readonly Professional[] = [
  {
    name: 'Dr. Amara Okafor',
    title: 'General Practitioner',
    specialties: ['General practice', 'Family medicine'],
    licenses: [{ licenseNumber: 'GMC 7212345', countries: ['GB'] }],
    profileUrl: 'https://professionals.example.org/amara-okafor',
  },
  {
    name: 'Dr. Lukas Becker',
    title: 'Specialist in Internal Medicine',
    specialties: ['Internal medicine', 'Cardiology'],
    licenses: [{ licenseNumber: 'LÄK-BY 48213', countries: ['DE', 'AT'] }],
    profileUrl: 'https://professionals.example.org/lukas-becker',
  },
  {
    name: 'Dr. Sofía Martínez',
    title: 'Dermatologist',
    specialties: ['Dermatology'],
    licenses: [
      { licenseNumber: 'CMM 28/2811934', countries: ['ES'] },
      { licenseNumber: 'GMC 7654321', countries: ['GB'] },
    ],
    profileUrl: 'https://professionals.example.org/sofia-martinez',
  },
  {
    name: 'Dr. Layla Al-Mansouri',
    title: 'Paediatrician',
    specialties: ['Paediatrics', 'Adolescent health'],
    licenses: [{ licenseNumber: 'DHA-P-0042317', countries: ['AE'] }],
    profileUrl: 'https://professionals.example.org/layla-al-mansouri',
  },
  {
    name: 'Priya Nair',
    title: 'Clinical Pharmacist',
    specialties: ['Medication review', 'Travel health'],
    licenses: [{ licenseNumber: 'GPhC 2079311', countries: ['GB', 'IE'] }],
    profileUrl: 'https://professionals.example.org/priya-nair',
  },
];

const [GENERAL_PRACTITIONER] = PROFESSIONALS as [Professional, ...Professional[]];

interface AnswerTemplate {
  topic: RegExp;
  professional: number;
  answer: string;
}

const ANSWERS: readonly AnswerTemplate[] = [
  {
    topic: /rash|skin|itch|eczema|acne|mole|spot/i,
    professional: 2,
    answer: `Thank you for your question. Skin changes like the one you describe are common and usually harmless, but a few things help us tell them apart:

- **Keep the skin moisturised** with a fragrance-free emollient twice a day.
- **Avoid new soaps, detergents or cosmetics** until it settles.
- **Take a photo every few days** so you can see whether it is spreading or changing.

Please see a doctor in person if the area becomes hot, swollen or painful, if you develop a fever, or if a mole changes shape, colour or size. The [British Association of Dermatologists](https://www.bad.org.uk/patient-information-leaflets) has reliable leaflets on common conditions.`,
  },
  {
    topic: /child|baby|son|daughter|toddler|infant|kid/i,
    professional: 3,
    answer: `Thank you for reaching out. For children, the most useful signs are how they are **drinking, playing and sleeping**:

1. Offer small, frequent drinks and watch for wet nappies or regular trips to the toilet.
2. Paracetamol or ibuprofen in the dose for their age can ease discomfort; never give aspirin to children under 16.
3. Let them rest, and check on them during the night.

Call emergency services if your child is unusually drowsy, has a rash that does not fade under a glass, or is struggling to breathe. More guidance: [NHS: Fever in children](https://www.nhs.uk/conditions/fever-in-children/).`,
  },
  {
    topic: /medic|tablet|pill|dose|drug|ibuprofen|paracetamol|antibiotic|side effect|pharmac/i,
    professional: 4,
    answer: `Thanks for checking before you take anything. A few general points:

- **Read the leaflet** that comes with the medicine for the dose and the maximum in 24 hours.
- **Tell your pharmacist about everything else you take**, including supplements and herbal remedies, as some combinations interact.
- **Do not double a dose** you have missed; take the next one at the usual time.

If you notice swelling of the face or lips, a new rash, or difficulty breathing after a new medicine, stop it and get urgent help. You can also look up your medicine at [medicines.org.uk](https://www.medicines.org.uk/emc).`,
  },
  {
    topic: /vitamin|supplement|diet|nutrition|iron|omega/i,
    professional: 0,
    answer: `Thank you for your question. A balanced diet covers most needs, with one common exception:

- **Vitamin D:** from October to March most people in northern countries do not make enough from sunlight. A daily supplement of **10 micrograms (400 IU)** is generally recommended for adults in those months.
- **Other supplements** are rarely needed unless a blood test shows a shortage, or you are pregnant, vegan or over 65.
- **More is not better:** high doses of vitamins A and D can be harmful; stay within the dose on the pack.

If you take other medicines, or have kidney problems, ask your pharmacist before starting a supplement. Read more at [NHS: Vitamin D](https://www.nhs.uk/conditions/vitamins-and-minerals/vitamin-d/).`,
  },
  {
    topic: /heart(?!burn)|chest|blood pressure|palpitation|cholesterol/i,
    professional: 1,
    answer: `Thank you for your question. Heart and blood pressure concerns deserve a careful look:

1. **Measure your blood pressure** at home at the same time each day for a week, and note the readings.
2. **Limit salt, alcohol and caffeine**, and aim for 150 minutes of moderate activity a week.
3. **Book a check with your GP** to review the readings and, if needed, blood tests.

Chest pain that spreads to the arm, jaw or back, or comes with breathlessness or sweating, is an emergency: call your local emergency number straight away. See also [British Heart Foundation](https://www.bhf.org.uk/informationsupport).`,
  },
  {
    topic: /cough|cold|throat|flu|fever|temperature|sneez|congest|sinus/i,
    professional: 0,
    answer: `Thank you for your question. Most coughs, colds and sore throats are caused by viruses and get better on their own within one to three weeks:

- **Rest and drink plenty of fluids**; warm drinks with honey can soothe a cough (not for children under one).
- **Paracetamol or ibuprofen** can ease a fever, aches and a sore throat; follow the dose on the pack.
- **Antibiotics do not help** with viral infections and can cause side effects.

Please see a doctor if you have a fever above 39 °C for more than three days, a cough lasting over three weeks, chest pain, or if you cough up blood. See [NHS: Cough](https://www.nhs.uk/conditions/cough/).`,
  },
  {
    topic: /headache|migraine|head hurts|head pain/i,
    professional: 0,
    answer: `Thank you for your question. Most headaches are tension headaches or migraines, and a few habits make them less frequent:

1. **Drink enough water** and do not skip meals.
2. **Keep regular sleep times**, and take breaks from screens.
3. **Use simple pain relief** for no more than two or three days a week, so it does not cause rebound headaches.

Get urgent help for a sudden, severe headache ("the worst ever"), a headache with a stiff neck, fever and rash, or with weakness, confusion or trouble speaking. More at [NHS: Headaches](https://www.nhs.uk/conditions/headaches/).`,
  },
  {
    topic: /sleep|insomnia|waking up|tired|fatigue/i,
    professional: 0,
    answer: `Thank you for your question. Waking early and not getting back to sleep is very common, and it usually improves with a few changes:

- **Get up at the same time every day**, weekends included, even after a poor night.
- **If you are awake for more than 20 minutes, get up** and do something quiet in dim light until you feel sleepy.
- **Avoid caffeine after midday and alcohol in the evening**; both break up sleep.

If poor sleep lasts more than a month, or you feel low, anxious or very tired during the day, please book an appointment: treatments such as CBT for insomnia work well. See [NHS: Insomnia](https://www.nhs.uk/conditions/insomnia/).`,
  },
  {
    topic: /stomach|belly|tummy|diarrh|vomit|nause|constipat|heartburn|reflux/i,
    professional: 1,
    answer: `Thank you for your question. Most stomach upsets settle within a few days:

1. **Sip fluids often**: water, or oral rehydration solution if you have diarrhoea or are vomiting.
2. **Eat small, plain meals** when you feel ready, and avoid alcohol, fatty and spicy food for a while.
3. **For heartburn**, avoid eating in the three hours before bed and raise the head of the bed slightly.

Please see a doctor if there is blood in your stool or vomit, severe or constant pain, signs of dehydration, or if symptoms last more than a week. See [NHS: Stomach ache](https://www.nhs.uk/conditions/stomach-ache/).`,
  },
];

const GENERAL_ANSWER = `Thank you for your question. Based on what you describe, here is what I would suggest:

1. **Rest and drink plenty of fluids** over the next few days.
2. **Keep a short diary** of when the symptoms occur and what makes them better or worse.
3. **Use simple pain relief** such as paracetamol if needed, following the dose on the pack.

Please see a doctor in person if things get worse, if new symptoms appear, or if you are not improving within a week. If you ever feel very unwell, call your local emergency number. You can read more at [NHS inform](https://www.nhsinform.scot/illnesses-and-conditions).`;

/** A simulated professional's markdown answer to a question, chosen by its topic. */
export function answerFor(question: string): { answer: string; professional: Professional } {
  const match = ANSWERS.find((a) => a.topic.test(question));
  const professional = PROFESSIONALS[match?.professional ?? 0] ?? GENERAL_PRACTITIONER;
  return { answer: match?.answer ?? GENERAL_ANSWER, professional };
}

/** Whom a question would go to, for claiming. */
export function professionalFor(question: string): Professional {
  return answerFor(question).professional;
}
