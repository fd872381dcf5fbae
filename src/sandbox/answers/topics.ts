/**
 * What the simulated professionals write about, and how a question is matched to it: twelve common
 * topics, each recognised by words in any of the six languages (English, German, French, Spanish,
 * Dutch, Arabic), each going to a professional whose role fits it. Anything else gets general
 * advice from a general practitioner.
 */
export const ANSWER_LANGUAGES = ['en', 'de', 'fr', 'es', 'nl', 'ar'] as const;
export type AnswerLanguage = (typeof ANSWER_LANGUAGES)[number];

export type TopicName =
  | 'skin'
  | 'child'
  | 'medicine'
  | 'allergy'
  | 'vitamin'
  | 'heart'
  | 'cold'
  | 'headache'
  | 'sleep'
  | 'stomach'
  | 'back'
  | 'anxiety';

export interface Topic {
  name: TopicName;
  /** Words that mark a question as being about it, in any of the six languages. */
  match: RegExp;
  /** The index in PROFESSIONALS of whom it goes to. */
  professional: number;
}

/** In order: the first that matches wins (a child's fever goes to the paediatrician). */
export const TOPICS: readonly Topic[] = [
  {
    name: 'child',
    match:
      /\b(?:child|children|baby|son|daughter|toddler|infant|kids?)\b|\bkinder|\btochter|\bsohn\b|enfant|bébé|\bfils\b|\bfille\b|niñ[oa]|\bhij[oa]\b|bebé|dochter|\bzoon|طفل|ابني|ابنتي|رضيع/iu,
    professional: 3,
  },
  {
    name: 'skin',
    match:
      /rash|skin|\bitch|eczema|acne|\bmoles?\b|ausschlag|juck|ekzem|peau|éruption|démange|eczéma|piel|sarpullido|picaz|eccema|huid|uitslag|jeuk|طفح|جلد|حكة|إكزيما/iu,
    professional: 2,
  },
  {
    name: 'allergy',
    match:
      /allerg|hay ?fever|pollen|heuschnupfen|pollen|rhume des foins|alergi|fiebre del heno|hooikoorts|حساسية|حمى القش/iu,
    professional: 4,
  },
  {
    name: 'medicine',
    match:
      /medic|tablet|pill|dose|drug|ibuprofen|paracetamol|antibiotic|side effect|pharmac|medikament|tablette|dosis|nebenwirkung|médicament|comprimé|effet secondaire|medicamento|pastilla|efecto secundario|medicijn|pil\b|bijwerking|دواء|حبوب|جرعة|مضاد حيوي|إيبوبروفين/iu,
    professional: 4,
  },
  {
    name: 'vitamin',
    match:
      /vitamin|supplement|\bdiet|nutrition|\biron\b|omega|nahrungsergänzung|ernährung|vitamine|complément|régime|suplemento|dieta|voeding|فيتامين|مكمل|غذاء/iu,
    professional: 0,
  },
  {
    name: 'heart',
    match:
      /heart(?!burn)|blood pressure|palpitation|cholesterol|herz(?!brennen)|blutdruck|cœur|coeur|tension artérielle|corazón|presión arterial|hart(?!zeer)|bloeddruk|قلب|ضغط الدم|خفقان/iu,
    professional: 1,
  },
  {
    name: 'cold',
    match:
      /cough|cold\b|throat|flu\b|fever|temperature|sneez|sinus|husten|erkält|hals|grippe|fieber|toux|rhume|gorge|fièvre|tos\b|resfriado|garganta|gripe|fiebre|hoest|verkoud|keel|griep|koorts|سعال|كحة|زكام|حلق|حمى|حرارة/iu,
    professional: 0,
  },
  {
    name: 'headache',
    match:
      /headache|migraine|kopfschmerz|migräne|mal de tête|maux de tête|dolor de cabeza|migraña|hoofdpijn|صداع|شقيقة/iu,
    professional: 0,
  },
  {
    name: 'sleep',
    match:
      /sleep|insomnia|waking up|tired|fatigue|schlaf|müde|sommeil|insomnie|fatigu|sueño|insomnio|cansad|slaap|moe\b|نوم|أرق|تعب/iu,
    professional: 0,
  },
  {
    name: 'stomach',
    match:
      /stomach|belly|tummy|diarrh|vomit|nause|constipat|heartburn|reflux|magen|bauch|durchfall|übel|sodbrennen|estomac|ventre|diarrhée|nausée|brûlures|estómago|barriga|diarrea|náusea|ardor|maag|buik|diarree|misselijk|brandend maagzuur|معدة|بطن|إسهال|غثيان|حرقة/iu,
    professional: 1,
  },
  {
    name: 'back',
    match:
      /back pain|backache|lower back|rücken|mal au dos|lombaire|dolor de espalda|lumbar|rugpijn|onderrug|ألم الظهر|آلام الظهر|ظهري/iu,
    professional: 5,
  },
  {
    name: 'anxiety',
    match:
      /anxi|stress|panic|worr(?:y|ied) all|low mood|depress|angst|panik|niedergeschlagen|anxiété|angoisse|stress|ansiedad|pánico|estrés|angstig|paniek|somber|قلق|توتر|هلع|اكتئاب/iu,
    professional: 6,
  },
];

/**
 * The language to answer in: Arabic for a question written in Arabic script, else the member's
 * own language when it is one of the six, else English.
 */
export function answerLanguage(question: string, memberLanguage?: string): AnswerLanguage {
  if (/[\u0600-\u06FF]/u.test(question)) return 'ar';
  const code = memberLanguage?.toLowerCase().split(/[-_]/)[0];
  return (ANSWER_LANGUAGES as readonly string[]).includes(code ?? '') ? (code as AnswerLanguage) : 'en';
}

export function topicOf(question: string): Topic | undefined {
  return TOPICS.find((topic) => topic.match.test(question));
}
