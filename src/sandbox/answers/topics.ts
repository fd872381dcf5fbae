/**
 * What the simulated professionals write about, and how a question is matched to it: thirteen
 * common topics, each recognised by its words in any of the six languages (English, German, French,
 * Spanish, Dutch, Arabic), each going to a professional whose role fits it. Anything else gets
 * general advice from a general practitioner.
 */
export const ANSWER_LANGUAGES = ['en', 'de', 'fr', 'es', 'nl', 'ar'] as const;
export type AnswerLanguage = (typeof ANSWER_LANGUAGES)[number];

export type TopicName =
  | 'childSkin'
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

/**
 * A topic's words per language. Each is the start of a word (`rash` finds "rashes"), or a whole
 * word when it ends in `=` (`son=` is not "person"); the rest is regular expression source. A
 * question is read in its own language first (the language it is answered in), where German and
 * Dutch words are also found inside a compound ("Hautausschlag", "hoofdpijn") and Arabic words
 * after an attached article or preposition ("الطفح", "بطفلي"). Only when that finds nothing are the
 * other languages' words tried, at word starts and without the words marked `~`, which mean
 * something else elsewhere (English "son" is French "his", German "Kind" is English "kind").
 */
type Words = Record<AnswerLanguage, readonly string[]>;
type WordTopic = Exclude<TopicName, 'childSkin'>;

const WORDS: Record<WordTopic, Words> = {
  child: {
    en: [
      'child',
      'kid=',
      'kids=',
      'baby',
      'babies',
      'toddler',
      'infant',
      '~son=',
      "son's",
      'daughter',
      'newborn',
      '\\d+[ -]?(?:year|month|week)s?[ -]old',
    ],
    de: ['~kind', 'säugling', 'tochter', 'sohn', 'neugeboren'],
    fr: ['enfant', 'bébé', 'nourrisson', '~fils=', '~fille=', 'fillette', 'garçon', 'tout-petit'],
    es: ['niñ[oa]', 'hij[oa]', 'bebé', '~bebe=', 'lactante', 'pequeñ[oa]='],
    nl: ['~kind', 'baby', 'peuter', 'kleuter', 'dochter', 'zoon', 'zuigeling'],
    ar: ['طفل', 'أطفال', 'ابني', 'ابنتي', 'بنتي', 'ولدي', 'رضيع', 'مولود'],
  },
  skin: {
    en: ['rash', 'skin', 'itch', 'eczema', 'acne', 'mole=', 'moles=', 'hives', 'spots=', 'blotch', 'pimple'],
    de: ['ausschlag', '~haut', 'juck', 'ekzem', 'akne', 'muttermal', 'pickel', 'quaddel', '~flecken'],
    fr: [
      'peau',
      'éruption',
      'démange',
      'eczéma',
      'acné',
      'grain de beauté',
      '~boutons=',
      '~plaques=',
      'urticaire',
    ],
    es: [
      'piel',
      'sarpullido',
      'erupción',
      'picaz',
      '~pica=',
      'eccema',
      'acné',
      'lunar',
      '~granos=',
      'ronchas',
      '~manchas=',
    ],
    nl: [
      'huid',
      'uitslag',
      'jeuk',
      'eczeem',
      'acne',
      'moedervlek',
      'puistje',
      'netelroos',
      'vlekjes',
      'bultjes',
    ],
    ar: ['طفح', 'جلد', 'حكة', 'إكزيما', 'أكزيما', 'حبوب الشباب', 'شامة', 'بقع'],
  },
  allergy: {
    en: ['allerg', 'hay ?fever', 'pollen'],
    de: ['allergi', 'heuschnupfen', 'pollen'],
    fr: ['allergi', 'rhume des foins', 'pollen'],
    es: ['alergi', 'fiebre del heno', 'polen'],
    nl: ['allergi', 'hooikoorts', 'pollen'],
    ar: ['حساسية', 'حمى القش', 'لقاح'],
  },
  medicine: {
    en: [
      'medic',
      'tablet',
      'pill',
      'dose',
      'dosage',
      'drug',
      'ibuprofen',
      'paracetamol',
      'aspirin',
      'antibiotic',
      'side effect',
      'pharmac',
      'prescri',
    ],
    de: [
      'medikament',
      'tablette',
      'dosis',
      'nebenwirkung',
      'ibuprofen',
      'paracetamol',
      'aspirin',
      'antibiotik',
      'arznei',
      'apothek',
    ],
    fr: [
      'médicament',
      'comprimé',
      'dose',
      'effet secondaire',
      'effets secondaires',
      'ibuprofène',
      'paracétamol',
      'aspirine',
      'antibiotique',
      'pharmac',
    ],
    es: [
      'medicamento',
      'medicina',
      'pastilla',
      'dosis',
      'efecto secundario',
      'efectos secundarios',
      'ibuprofeno',
      'paracetamol',
      'aspirina',
      'antibiótico',
      'farmac',
    ],
    nl: [
      'medicijn',
      'medicatie',
      'geneesmiddel',
      '~pil=',
      'pillen',
      'tablet',
      'dosis',
      'bijwerking',
      'ibuprofen',
      'paracetamol',
      'aspirine',
      'antibiotic',
      'apothe',
    ],
    ar: ['دواء', 'أدوية', 'حبوب', 'جرعة', 'مضاد حيوي', 'إيبوبروفين', 'ايبوبروفين', 'باراسيتامول', 'أسبرين'],
  },
  vitamin: {
    en: ['vitamin', 'supplement', 'diet=', 'nutrition', '~iron=', 'omega'],
    de: ['vitamin', 'nahrungsergänzung', 'ernährung', '~eisen=', 'omega'],
    fr: ['vitamine', 'complément', 'régime', 'alimentation', '~fer=', 'oméga'],
    es: ['vitamina', 'suplemento', 'dieta', 'alimentación', 'hierro', 'omega'],
    nl: ['vitamine', 'supplement', 'voeding', 'dieet', 'ijzer', 'omega'],
    ar: ['فيتامين', 'مكمل', 'غذاء', 'تغذية', 'حديد'],
  },
  heart: {
    en: ['heart(?!burn)', 'blood pressure', 'palpitation', 'cholesterol', 'hypertension'],
    de: ['herz(?!brennen)', 'blutdruck', 'cholesterin'],
    fr: ['cœur', 'coeur', 'tension artérielle', 'hypertension', 'palpitation', 'cholestérol'],
    es: ['corazón', 'presión arterial', 'tensión arterial', 'hipertensión', 'palpitaci', 'colesterol'],
    nl: ['~hart(?!zeer)', 'bloeddruk', 'hartklopping', 'cholesterol'],
    ar: ['قلب', 'ضغط الدم', 'خفقان', 'كوليسترول'],
  },
  cold: {
    en: [
      'cough',
      'cold=',
      'colds=',
      'throat',
      'flu=',
      'fever',
      'temperature',
      'sneez',
      'sinus',
      'runny nose',
      'blocked nose',
    ],
    de: ['husten', 'erkält', '~hals', 'grippe', 'fieber', 'schnupfen', 'niese'],
    fr: ['toux', 'tousse', 'rhume', '~gorge=', 'grippe', 'fièvre', 'température', 'éternue', 'nez qui coule'],
    es: ['~tos=', '~toso=', 'resfriado', 'catarro', 'garganta', 'gripe', 'fiebre', 'temperatura', 'estornud'],
    nl: ['hoest', 'verkoud', '~keel', 'griep', 'koorts', 'niez', 'snotneus'],
    ar: ['سعال', 'كحة', 'زكام', 'برد', 'حلق', 'إنفلونزا', 'انفلونزا', 'حمى', 'حرارة'],
  },
  headache: {
    en: ['headache', 'head hurts', 'migraine'],
    de: ['kopfschmerz', 'kopfweh', 'migräne'],
    fr: ['mal de tête', 'maux de tête', 'mal à la tête', 'céphalée', 'migraine'],
    es: ['dolor de cabeza', 'dolores de cabeza', 'me duele la cabeza', 'jaqueca', 'migraña'],
    nl: ['hoofdpijn', 'migraine'],
    ar: ['صداع', 'شقيقة', 'ألم في الرأس', 'وجع راس', 'وجع رأس'],
  },
  sleep: {
    en: ['sleep', 'insomnia', 'waking up', 'wake up', 'tired', 'fatigue', 'exhausted'],
    de: ['schlaf', 'müde', 'erschöpft', 'aufwach', 'wache .* auf'],
    fr: ['sommeil', 'dormir', 'insomnie', 'fatig', 'réveille'],
    es: ['sueño', 'dormir', 'duermo', 'insomnio', 'cansad', 'agotad', 'despierto'],
    nl: ['slaap', 'slapen', '~moe=', 'vermoeid', 'wakker'],
    ar: ['نوم', 'أنام', 'أرق', 'تعب', 'إرهاق', 'أستيقظ'],
  },
  stomach: {
    en: [
      'stomach',
      'belly',
      'tummy',
      'diarrh',
      'vomit',
      'nause',
      'constipat',
      'heartburn',
      'reflux',
      'indigestion',
    ],
    de: ['~magen', 'bauch', 'durchfall', 'erbrech', 'übel', 'verstopf', 'sodbrennen'],
    fr: ['estomac', 'ventre', 'diarrhée', 'vomi', 'nausée', 'constipé', 'brûlures', 'reflux'],
    es: ['estómago', 'barriga', 'tripa', 'diarrea', 'vómit', 'vomit', 'náusea', 'estreñ', 'ardor', 'reflujo'],
    nl: ['~maag', 'buik', 'diarree', 'overgeven', 'braken', 'misselijk', 'verstop', 'zuurbranden'],
    ar: ['معدة', 'بطن', 'إسهال', 'اسهال', 'قيء', 'استفراغ', 'غثيان', 'إمساك', 'حرقة', 'حموضة'],
  },
  back: {
    en: [
      'back pain',
      'backache',
      'lower back',
      'upper back',
      'my back',
      'sore back',
      'back hurts',
      'sciatica',
    ],
    de: ['rücken', 'kreuzschmerz', 'ischias', 'hexenschuss'],
    fr: [
      'mal au dos',
      'mal de dos',
      'douleur au dos',
      'douleurs au dos',
      '~dos=',
      'lombaire',
      'sciatique',
      'lumbago',
    ],
    es: ['espalda', 'lumbar', 'lumbago', 'ciática'],
    nl: ['rugpijn', '~rug=', 'onderrug', 'hernia', 'ischias'],
    // Not ظهر alone: it is also "appeared" and "noon".
    ar: ['ألم الظهر', 'ألم في الظهر', 'آلام الظهر', 'وجع الظهر', 'ظهري', 'أسفل الظهر', 'عرق النسا'],
  },
  anxiety: {
    en: ['anxi', 'stress', 'panic', 'worr(?:y|ied) all', 'low mood', 'depress', 'nervous'],
    de: ['angst', 'ängst', 'panik', 'stress', 'gestresst', 'niedergeschlagen', 'depress', 'nervös'],
    fr: ['anxi', 'angoiss', 'stress', 'panique', 'déprim', 'dépress', 'nerveu'],
    es: ['ansiedad', 'ansios', 'angustia', 'pánico', 'estrés', 'estresad', 'deprim', 'nervios'],
    nl: ['angst', 'paniek', 'stress', 'gestrest', 'somber', 'depressi', 'zenuwachtig', 'piekeren'],
    ar: ['قلق', 'توتر', 'هلع', 'اكتئاب', 'خوف'],
  },
};

const NOT_IN_A_WORD = '(?<![\\p{L}\\p{M}\\p{N}])';
const WORD_END = '(?![\\p{L}\\p{M}\\p{N}])';
/** Where a word may start in a question in its own language (see `Words`). */
const OWN_WORD_START: Record<AnswerLanguage, string> = {
  en: NOT_IN_A_WORD,
  fr: NOT_IN_A_WORD,
  es: NOT_IN_A_WORD,
  de: '',
  nl: '',
  ar: '(?<![\\p{L}\\p{M}])(?:[وفبكل]?(?:ال|لل)?)',
};

/** One language's words for a topic, as read in a question of that language or of another. */
function pattern(words: readonly string[], start: string, ownLanguage: boolean): RegExp | undefined {
  const alternatives = words
    .filter((word) => ownLanguage || !word.startsWith('~'))
    .map((word) => word.replace(/^~/, ''))
    .map((word) =>
      // A whole word starts a word even where compounds are read.
      word.endsWith('=') ? `${start || NOT_IN_A_WORD}${word.slice(0, -1)}${WORD_END}` : `${start}${word}`,
    );
  return alternatives.length ? new RegExp(alternatives.join('|'), 'iu') : undefined;
}

type Reading = Record<WordTopic, RegExp | undefined>;
const reading = (language: AnswerLanguage, own: boolean): Reading =>
  Object.fromEntries(
    Object.entries(WORDS).map(([name, words]) => [
      name,
      pattern(words[language], own ? OWN_WORD_START[language] : NOT_IN_A_WORD, own),
    ]),
  ) as Reading;
const OWN = Object.fromEntries(ANSWER_LANGUAGES.map((l) => [l, reading(l, true)])) as Record<
  AnswerLanguage,
  Reading
>;
const FOREIGN = Object.fromEntries(ANSWER_LANGUAGES.map((l) => [l, reading(l, false)])) as Record<
  AnswerLanguage,
  Reading
>;

export interface Topic {
  name: TopicName;
  /** The topics whose words a question needs, all of them, to be about this one. */
  needs: readonly WordTopic[];
  /** The index in PROFESSIONALS of whom it goes to. */
  professional: number;
}

/**
 * In order: the first that matches wins. A child's rash is its own topic (what to look for on a
 * child's skin), anything else about a child goes to the paediatrician; a rash from a new medicine
 * is about the skin; a medicine for a headache goes to the pharmacist; a stomach ache with a
 * temperature is about the stomach.
 */
export const TOPICS: readonly Topic[] = [
  { name: 'childSkin', needs: ['child', 'skin'], professional: 3 },
  { name: 'child', needs: ['child'], professional: 3 },
  { name: 'skin', needs: ['skin'], professional: 2 },
  { name: 'allergy', needs: ['allergy'], professional: 4 },
  { name: 'medicine', needs: ['medicine'], professional: 4 },
  { name: 'vitamin', needs: ['vitamin'], professional: 0 },
  { name: 'stomach', needs: ['stomach'], professional: 1 },
  { name: 'heart', needs: ['heart'], professional: 1 },
  { name: 'headache', needs: ['headache'], professional: 0 },
  { name: 'back', needs: ['back'], professional: 5 },
  { name: 'anxiety', needs: ['anxiety'], professional: 6 },
  { name: 'cold', needs: ['cold'], professional: 0 },
  { name: 'sleep', needs: ['sleep'], professional: 0 },
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

/**
 * The topic of a question, if it has one: read in `language` (the one it is answered in), and
 * only when that finds nothing in the other five. The text is compared in its composed form.
 */
export function topicOf(question: string, language: AnswerLanguage = 'en'): Topic | undefined {
  const text = question.normalize('NFC');
  const own = OWN[language];
  const others = ANSWER_LANGUAGES.filter((l) => l !== language).map((l) => FOREIGN[l]);
  const found = (name: WordTopic, readings: readonly Reading[]) =>
    readings.some((words) => words[name]?.test(text) === true);
  return (
    TOPICS.find((topic) => topic.needs.every((name) => found(name, [own]))) ??
    TOPICS.find((topic) => topic.needs.every((name) => found(name, others)))
  );
}
