/**
 * The sandbox's health navigator: a rule-based responder. It gives general guidance, points to the
 * right kind of care, and for anything that sounds like a symptom suggests asking a doctor (the
 * `suggestsDoctor` flag the elements act on). It never names a diagnosis.
 */
export interface NavigatorResponse {
  text: string;
  suggestsDoctor: boolean;
  urgent: boolean;
}

const EMERGENCY =
  /chest pain|can'?t breathe|cannot breathe|difficulty breathing|struggling to breathe|unconscious|fainted|seizure|stroke|suicid|kill myself|overdose|severe bleeding|anaphyla/i;

// Short stems are bounded so that "year", "near", "will", "Spain", "number" or "feedback" are no symptom.
const SYMPTOM =
  /\bpain|ache|hurt|sore|fever|temperature|cough|rash|\bitch|bleed|dizz|nause|vomit|diarr|swell|lump|headache|migraine|breath|tired|fatigue|infection|burn|cramp|\bnumb(?!er)|tingl|symptom|sick|\bill(?:ness)?\b|unwell|throat|\bears?\b|hearing|heart|\beye|stomach|\bback\b/i;

interface Topic {
  match: RegExp;
  text: string;
}

const TOPICS: readonly Topic[] = [
  {
    match: /sleep|insomnia|tired at night|can'?t sleep/i,
    text: `Good sleep habits help most people:

- Keep the same wake-up time every day, weekends included.
- Keep screens out of the last hour before bed, and the bedroom cool and dark.
- Limit caffeine after midday and alcohol in the evening.

If poor sleep lasts more than a few weeks or affects your day, a doctor can look at the causes with you.`,
  },
  {
    match: /diet|eat|food|nutrition|weight|vitamin/i,
    text: `A balanced diet is built on a few simple habits:

- Half the plate vegetables and fruit, a quarter whole grains, a quarter protein.
- Water as the main drink; sugary drinks as an occasional treat.
- Regular meals, so you are not relying on snacks.

For a plan that fits a condition or medicine you take, a doctor or dietitian can advise.`,
  },
  {
    match: /exercise|sport|workout|run|walk|fitness|active/i,
    text: `Adults are generally advised to aim for:

- **150 minutes** of moderate activity a week (brisk walking, cycling), or 75 minutes of vigorous activity.
- **Strength exercises** on two days a week.
- Breaking up long periods of sitting.

Start gently and build up. If you have a heart or lung condition, check with a doctor before starting something new.`,
  },
  {
    match: /stress|anxi|worr|mood|sad|depress|lonely|mental/i,
    text: `Thank you for sharing that. Things that often help with stress and low mood:

- Talking to someone you trust.
- Regular movement, daylight and a steady sleep routine.
- Short breathing exercises: breathe in for 4, hold for 4, out for 6.

If these feelings last more than two weeks or get in the way of daily life, a doctor can help. If you ever think about harming yourself, contact emergency services or a crisis line straight away.`,
  },
  {
    match: /vaccin|jab|immuni|travel/i,
    text: `Vaccination advice depends on your age, health and any travel plans. A pharmacist or doctor can check your record and tell you which vaccines are due. For travel, ask about six to eight weeks before you leave.`,
  },
  {
    match: /prescri|medic|tablet|pill|dose|pharmac/i,
    text: `For questions about a medicine, the leaflet in the pack and your pharmacist are good first stops. They can check the dose, interactions with other medicines, and side effects. A doctor can review whether a medicine is still right for you.`,
  },
  {
    match: /how does|what is this|what can you|help me|how do i|consultation|doctor/i,
    text: `I can help you find general health information and the right kind of care. For questions about your own health, you can ask a licensed doctor in writing: you will get a written answer, and you can add up to two follow-up questions.`,
  },
];

const GENERAL = `I can share general health information and help you decide where to go next. Could you tell me a bit more about what you would like to know?`;

const ASK_A_DOCTOR = `I can't tell what is causing this, but a licensed doctor can look at it with you. You can ask a doctor in writing here, with the details you just shared.

In the meantime:
- Rest, and drink enough fluids.
- Note when it started and what makes it better or worse.
- Get urgent care if it gets much worse or new symptoms appear.`;

const EMERGENCY_TEXT = `**This may need urgent help.** If you or someone with you is in danger, call your local emergency number now (112 in Europe, 999 in the UK, 911 in North America).

I can't assess emergencies here. Once you are safe, you can ask a doctor in writing for follow-up advice.`;

export function navigatorRespond(message: string): NavigatorResponse {
  if (EMERGENCY.test(message)) return { text: EMERGENCY_TEXT, suggestsDoctor: true, urgent: true };
  if (SYMPTOM.test(message)) return { text: ASK_A_DOCTOR, suggestsDoctor: true, urgent: false };
  const topic = TOPICS.find((t) => t.match.test(message));
  return { text: topic?.text ?? GENERAL, suggestsDoctor: false, urgent: false };
}

export const NAVIGATOR_GREETING = `Hello! I'm your health navigator. I can share general health information and help you find the right care. What would you like to know?`;
