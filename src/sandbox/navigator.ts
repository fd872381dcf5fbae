/**
 * The sandbox's health navigator: a rule-based responder. It gives general guidance, points to the
 * right kind of care, and for anything that sounds like a symptom suggests asking a doctor (the
 * `suggestsDoctor` flag the elements act on). It never names a diagnosis. To a member whose plan
 * includes no written questions to a doctor it offers none, in no reply: it points them to their
 * own doctor (and, in an emergency, first to the emergency number) instead.
 *
 * It answers in the member's language (English, German, French, Spanish, Dutch or Arabic; English
 * for any other) and recognises emergencies, symptoms and topics written in any of the six, so an
 * Arabic "صداع وحمى" (headache and fever) gets the hand-off to a doctor as the English does.
 */
export interface NavigatorResponse {
  text: string;
  suggestsDoctor: boolean;
  urgent: boolean;
}

export const NAVIGATOR_LANGUAGES = ['en', 'de', 'fr', 'es', 'nl', 'ar'] as const;
type Language = (typeof NAVIGATOR_LANGUAGES)[number];

const EMERGENCY = new RegExp(
  [
    // English
    "chest pain|can'?t breathe|cannot breathe|difficulty breathing|struggling to breathe|unconscious|fainted|seizure|stroke|suicid|kill myself|overdose|severe bleeding|anaphyla",
    // English, as people write a heart attack or a stroke: "my chest hurts", "my arm is numb", "her face is drooping"
    'chest (?:hurts|is hurting|feels (?:tight|heavy)|tightness)|(?:tightness|pressure|crushing pain) in (?:my |the |his |her )?chest|(?:arm|face) (?:is |feels |went |has gone )?numb|numb(?:ness in)? (?:my |his |her )?(?:left )?(?:arm|face)|face (?:is )?drooping|slurred speech|speech is slurred',
    // German, French, Spanish, Dutch
    'brustschmerz|atemnot|bewusstlos|krampfanfall|schlaganfall|douleur (?:à|a) la poitrine|douleur thoracique|inconscient|(?:je )?ne peux pas respirer|dolor (?:en el|de) pecho|no puedo respirar|inconsciente|pijn op de borst|kan niet ademen|bewusteloos|beroerte',
    // Arabic: chest pain, cannot breathe, unconscious, stroke, suicide
    'ألم في الصدر|الم في الصدر|لا أستطيع التنفس|ضيق شديد في التنفس|فاقد الوعي|فقدان الوعي|جلطة|سكتة|انتحار',
  ].join('|'),
  'iu',
);

// Short stems are bounded so that "year", "near", "will", "Spain", "number" or "feedback" are no symptom.
const SYMPTOM = new RegExp(
  [
    '\\bpain|(?:head|stomach|tooth|back|ear)ache|\\baches?\\b|hurt|sore|fever|temperature|cough|rash|\\bitch|bleed|dizz|nause|vomit|diarr|swell|lump|headache|migraine|breath|tired|fatigue|infection|burn|cramp|\\bnumb(?!er)|tingl|symptom|sick|\\bill(?:ness)?\\b|unwell|throat|\\bears?\\b|hearing|heart|\\beye|stomach|\\bback\\b',
    // German
    'schmerz|weh\\b|fieber|husten|ausschlag|juck|schwindel|übel|erbroch|durchfall|schwellung|kopfschmerz|müde|entzündung|krank|symptom',
    // French
    'douleur|\\bmal\\b|fièvre|fievre|toux|éruption|démange|vertige|nausée|vomi|diarrhée|gonfl|migraine|fatigu|infection|malade|symptôme',
    // Spanish
    'dolor|fiebre|\\btos\\b|sarpullido|picaz|mareo|náusea|vómito|diarrea|hinchaz|cansad|infecci[oó]n|enferm|síntoma',
    // Dutch
    '\\bpijn|koorts|hoest|uitslag|jeuk|duizel|misselijk|overgeven|diarree|zwelling|hoofdpijn|moe\\b|ontsteking|ziek',
    // Arabic: pain, headache, fever, cough, rash, itching, dizziness, nausea, vomiting, diarrhoea,
    // swelling, tiredness, infection, ill, symptom
    'ألم|وجع|صداع|حمى|حمّى|حرارة|سعال|كحة|طفح|حكة|دوخة|دوار|غثيان|تقيؤ|إسهال|اسهال|تورم|تعب|إرهاق|التهاب|مريض|أعراض',
  ].join('|'),
  'iu',
);

type Texts = Record<Language, string>;

interface Topic {
  match: RegExp;
  text: Texts;
  /** The reply for a member whose plan includes no written questions to a doctor, where `text` offers one. */
  withoutPlan?: Texts;
}

const TOPICS: readonly Topic[] = [
  {
    match:
      /sleep|insomnia|can'?t sleep|schlaf|sommeil|dormir|insomnie|sueño|insomnio|slaap|نوم|أنام|انام|أرق|ارق/iu,
    text: {
      en: `Good sleep habits help most people:

- Keep the same wake-up time every day, weekends included.
- Keep screens out of the last hour before bed, and the bedroom cool and dark.
- Limit caffeine after midday and alcohol in the evening.

If poor sleep lasts more than a few weeks or affects your day, a doctor can look at the causes with you.`,
      de: `Gute Schlafgewohnheiten helfen den meisten Menschen:

- Jeden Tag zur gleichen Zeit aufstehen, auch am Wochenende.
- In der letzten Stunde vor dem Schlafen keine Bildschirme; das Schlafzimmer kühl und dunkel halten.
- Koffein nach Mittag und Alkohol am Abend begrenzen.

Wenn der Schlaf über Wochen schlecht bleibt, kann eine Ärztin oder ein Arzt mit Ihnen nach den Ursachen suchen.`,
      fr: `De bonnes habitudes de sommeil aident la plupart des gens :

- Se lever à la même heure chaque jour, week-end compris.
- Pas d’écran dans l’heure qui précède le coucher ; une chambre fraîche et sombre.
- Limiter la caféine après midi et l’alcool le soir.

Si le mauvais sommeil dure plusieurs semaines, un médecin peut en chercher les causes avec vous.`,
      es: `Unos buenos hábitos de sueño ayudan a la mayoría:

- Levantarse a la misma hora cada día, también los fines de semana.
- Nada de pantallas en la última hora antes de dormir; el dormitorio fresco y oscuro.
- Limitar la cafeína después del mediodía y el alcohol por la noche.

Si el mal sueño dura varias semanas, un médico puede buscar las causas con usted.`,
      nl: `Goede slaapgewoonten helpen de meeste mensen:

- Sta elke dag op hetzelfde tijdstip op, ook in het weekend.
- Geen schermen in het laatste uur voor het slapen; een koele, donkere slaapkamer.
- Beperk cafeïne na de middag en alcohol in de avond.

Blijft u weken slecht slapen, dan kan een arts met u naar de oorzaken kijken.`,
      ar: `تساعد عادات النوم الجيدة معظم الناس:

- استيقظ في الوقت نفسه كل يوم، حتى في عطلة نهاية الأسبوع.
- ابتعد عن الشاشات في الساعة الأخيرة قبل النوم، واجعل غرفة النوم باردة ومظلمة.
- قلّل الكافيين بعد الظهر والكحول في المساء.

إذا استمر النوم السيئ عدة أسابيع، يمكن للطبيب أن يبحث معك عن الأسباب.`,
    },
  },
  {
    match:
      /diet|\beat|food|nutrition|weight|vitamin|ernährung|essen|gewicht|alimentation|manger|poids|dieta|comida|peso|voeding|eten|gewicht|غذاء|طعام|وزن|حمية|فيتامين/iu,
    text: {
      en: `A balanced diet is built on a few simple habits:

- Half the plate vegetables and fruit, a quarter whole grains, a quarter protein.
- Water as the main drink; sugary drinks as an occasional treat.
- Regular meals, so you are not relying on snacks.

For a plan that fits a condition or medicine you take, a doctor or dietitian can advise.`,
      de: `Eine ausgewogene Ernährung beruht auf wenigen Gewohnheiten:

- Der halbe Teller Gemüse und Obst, ein Viertel Vollkorn, ein Viertel Eiweiß.
- Wasser als wichtigstes Getränk; Süßgetränke nur ab und zu.
- Regelmäßige Mahlzeiten statt vieler Snacks.

Für einen Plan, der zu einer Erkrankung oder Ihren Medikamenten passt, berät Sie eine Ärztin, ein Arzt oder eine Ernährungsfachkraft.`,
      fr: `Une alimentation équilibrée repose sur quelques habitudes :

- La moitié de l’assiette en légumes et fruits, un quart de céréales complètes, un quart de protéines.
- L’eau comme boisson principale ; les boissons sucrées de temps en temps.
- Des repas réguliers plutôt que des en-cas.

Pour un plan adapté à une maladie ou à un traitement, un médecin ou un diététicien peut vous conseiller.`,
      es: `Una dieta equilibrada se basa en pocos hábitos:

- Medio plato de verduras y fruta, un cuarto de cereales integrales y un cuarto de proteína.
- Agua como bebida principal; las bebidas azucaradas, de vez en cuando.
- Comidas regulares en lugar de picoteo.

Para un plan adaptado a una enfermedad o a su medicación, un médico o dietista puede aconsejarle.`,
      nl: `Een evenwichtig voedingspatroon rust op een paar gewoonten:

- Het halve bord groente en fruit, een kwart volkoren, een kwart eiwit.
- Water als belangrijkste drank; suikerhoudende dranken af en toe.
- Vaste maaltijden in plaats van tussendoortjes.

Voor een plan dat past bij een aandoening of uw medicijnen kan een arts of diëtist u adviseren.`,
      ar: `يقوم الغذاء المتوازن على عادات بسيطة:

- نصف الطبق خضار وفاكهة، وربعه حبوب كاملة، وربعه بروتين.
- الماء هو المشروب الأساسي، والمشروبات السكرية في المناسبات فقط.
- وجبات منتظمة بدل الاعتماد على الوجبات الخفيفة.

للحصول على خطة تناسب حالة صحية أو دواءً تتناوله، يمكن للطبيب أو أخصائي التغذية أن ينصحك.`,
    },
  },
  {
    match:
      /exercise|sport|workout|\brun|walk|fitness|active|bewegung|training|laufen|exercice|courir|marche|ejercicio|correr|caminar|beweging|lopen|wandelen|رياضة|تمارين|مشي|جري/iu,
    text: {
      en: `Adults are generally advised to aim for:

- **150 minutes** of moderate activity a week (brisk walking, cycling), or 75 minutes of vigorous activity.
- **Strength exercises** on two days a week.
- Breaking up long periods of sitting.

Start gently and build up. If you have a heart or lung condition, check with a doctor before starting something new.`,
      de: `Erwachsenen wird meist empfohlen:

- **150 Minuten** mäßige Bewegung pro Woche (zügiges Gehen, Radfahren) oder 75 Minuten intensive.
- **Kräftigungsübungen** an zwei Tagen pro Woche.
- Langes Sitzen unterbrechen.

Fangen Sie sanft an. Bei einer Herz- oder Lungenerkrankung sprechen Sie vorher mit einer Ärztin oder einem Arzt.`,
      fr: `On conseille en général aux adultes :

- **150 minutes** d’activité modérée par semaine (marche rapide, vélo), ou 75 minutes d’activité intense.
- Des **exercices de renforcement** deux jours par semaine.
- D’interrompre les longues périodes assises.

Commencez doucement. En cas de maladie du cœur ou des poumons, parlez-en d’abord à un médecin.`,
      es: `En general se aconseja a los adultos:

- **150 minutos** de actividad moderada a la semana (caminar rápido, bicicleta), o 75 de actividad intensa.
- **Ejercicios de fuerza** dos días a la semana.
- Interrumpir los ratos largos sentado.

Empiece poco a poco. Si tiene una enfermedad del corazón o del pulmón, consulte antes a un médico.`,
      nl: `Volwassenen wordt meestal aangeraden:

- **150 minuten** matig intensief bewegen per week (stevig wandelen, fietsen), of 75 minuten intensief.
- **Spierversterkende oefeningen** op twee dagen per week.
- Lang stilzitten onderbreken.

Begin rustig. Heeft u een hart- of longaandoening, overleg dan eerst met een arts.`,
      ar: `يُنصح البالغون عادةً بما يلي:

- **150 دقيقة** من النشاط المعتدل أسبوعيًا (المشي السريع، ركوب الدراجة)، أو 75 دقيقة من النشاط القوي.
- **تمارين القوة** يومين في الأسبوع.
- كسر فترات الجلوس الطويلة.

ابدأ بهدوء. إذا كان لديك مرض في القلب أو الرئتين، استشر الطبيب قبل البدء.`,
    },
  },
  {
    match:
      /stress|anxi|worr|mood|\bsad|depress|lonely|mental|angst|sorge|stimmung|anxiété|humeur|triste|ansiedad|estrés|ánimo|somber|eenzaam|توتر|قلق|اكتئاب|حزن/iu,
    text: {
      en: `Thank you for sharing that. Things that often help with stress and low mood:

- Talking to someone you trust.
- Regular movement, daylight and a steady sleep routine.
- Short breathing exercises: breathe in for 4, hold for 4, out for 6.

If these feelings last more than two weeks or get in the way of daily life, a doctor can help. If you ever think about harming yourself, contact emergency services or a crisis line straight away.`,
      de: `Danke, dass Sie das teilen. Was bei Stress und gedrückter Stimmung oft hilft:

- Mit einem Menschen sprechen, dem Sie vertrauen.
- Regelmäßige Bewegung, Tageslicht und feste Schlafzeiten.
- Kurze Atemübungen: 4 ein, 4 halten, 6 aus.

Halten diese Gefühle länger als zwei Wochen an, kann eine Ärztin oder ein Arzt helfen. Wenn Sie daran denken, sich etwas anzutun, wenden Sie sich sofort an den Notruf oder eine Krisenhotline.`,
      fr: `Merci de nous en parler. Ce qui aide souvent contre le stress et le moral bas :

- En parler à une personne de confiance.
- Bouger régulièrement, la lumière du jour et des horaires de sommeil réguliers.
- De courts exercices de respiration : inspirer sur 4, retenir sur 4, expirer sur 6.

Si ces sentiments durent plus de deux semaines, un médecin peut vous aider. Si vous pensez à vous faire du mal, appelez tout de suite les urgences ou une ligne d’écoute.`,
      es: `Gracias por contarlo. Lo que suele ayudar con el estrés y el ánimo bajo:

- Hablar con alguien de confianza.
- Moverse a diario, la luz del día y horarios de sueño regulares.
- Ejercicios cortos de respiración: inspirar en 4, mantener 4, espirar en 6.

Si estos sentimientos duran más de dos semanas, un médico puede ayudarle. Si piensa en hacerse daño, llame enseguida a emergencias o a una línea de crisis.`,
      nl: `Dank u dat u dit deelt. Wat vaak helpt bij stress en een sombere stemming:

- Praten met iemand die u vertrouwt.
- Regelmatig bewegen, daglicht en vaste slaaptijden.
- Korte ademhalingsoefeningen: 4 in, 4 vasthouden, 6 uit.

Duren deze gevoelens langer dan twee weken, dan kan een arts helpen. Denkt u eraan uzelf iets aan te doen, bel dan meteen de hulpdiensten of een crisislijn.`,
      ar: `شكرًا لمشاركتك ذلك. مما يساعد غالبًا مع التوتر وانخفاض المزاج:

- التحدث إلى شخص تثق به.
- الحركة المنتظمة وضوء النهار وروتين نوم ثابت.
- تمارين تنفس قصيرة: شهيق 4، حبس 4، زفير 6.

إذا استمرت هذه المشاعر أكثر من أسبوعين، يمكن للطبيب أن يساعدك. وإذا فكرت يومًا في إيذاء نفسك، اتصل بالطوارئ أو بخط مساعدة فورًا.`,
    },
  },
  {
    match: /vaccin|\bjab|immuni|travel|impf|reise|voyage|vacuna|viaje|vaccinatie|reis|لقاح|تطعيم|سفر/iu,
    text: {
      en: `Vaccination advice depends on your age, health and any travel plans. A pharmacist or doctor can check your record and tell you which vaccines are due. For travel, ask about six to eight weeks before you leave.`,
      de: `Welche Impfungen sinnvoll sind, hängt von Alter, Gesundheit und Reiseplänen ab. Apotheke oder Arztpraxis prüfen Ihren Impfpass. Vor Reisen fragen Sie etwa sechs bis acht Wochen vorher.`,
      fr: `Les vaccins conseillés dépendent de l’âge, de la santé et des voyages prévus. Un pharmacien ou un médecin peut vérifier votre carnet. Avant un voyage, renseignez-vous six à huit semaines avant le départ.`,
      es: `Las vacunas recomendadas dependen de la edad, la salud y los viajes previstos. Un farmacéutico o un médico puede revisar su cartilla. Antes de viajar, pregunte con seis a ocho semanas de antelación.`,
      nl: `Welke vaccinaties zinvol zijn, hangt af van leeftijd, gezondheid en reisplannen. Een apotheker of arts kan uw gegevens nakijken. Vraag het voor een reis zes tot acht weken van tevoren.`,
      ar: `تعتمد نصائح التطعيم على عمرك وصحتك وخطط سفرك. يمكن للصيدلي أو الطبيب مراجعة سجلك وإخبارك باللقاحات المستحقة. قبل السفر، اسأل قبل ستة إلى ثمانية أسابيع من موعده.`,
    },
  },
  {
    match:
      /prescri|medic|tablet|\bpill|dose|pharmac|rezept|medikament|apotheke|ordonnance|médicament|receta|medicamento|farmacia|recept|medicijn|apotheek|دواء|وصفة|صيدلية|جرعة/iu,
    text: {
      en: `For questions about a medicine, the leaflet in the pack and your pharmacist are good first stops. They can check the dose, interactions with other medicines, and side effects. A doctor can review whether a medicine is still right for you.`,
      de: `Bei Fragen zu einem Medikament sind der Beipackzettel und Ihre Apotheke gute erste Anlaufstellen: Dosis, Wechselwirkungen und Nebenwirkungen. Ob ein Medikament noch das richtige ist, prüft eine Ärztin oder ein Arzt.`,
      fr: `Pour une question sur un médicament, la notice et votre pharmacien sont de bons premiers recours : dose, interactions et effets indésirables. Un médecin peut vérifier si le traitement vous convient toujours.`,
      es: `Para dudas sobre un medicamento, el prospecto y su farmacéutico son un buen primer paso: dosis, interacciones y efectos secundarios. Un médico puede revisar si el medicamento sigue siendo el adecuado.`,
      nl: `Voor vragen over een medicijn zijn de bijsluiter en uw apotheker een goed begin: dosis, wisselwerkingen en bijwerkingen. Een arts kan nagaan of een medicijn nog bij u past.`,
      ar: `لأسئلة الدواء، النشرة داخل العلبة والصيدلي نقطتا بداية جيدتان: الجرعة والتداخلات والآثار الجانبية. ويمكن للطبيب أن يراجع ما إذا كان الدواء لا يزال مناسبًا لك.`,
    },
  },
  {
    match:
      /how does|what is this|what can you|help me|how do i|consultation|doctor|wie funktioniert|arzt|ärztin|comment|médecin|cómo|médico|hoe werkt|dokter|\b(?:een|de|mijn|uw) (?:huis)?arts(?:en)?\b|\bhuisarts|كيف|طبيب|استشارة/iu,
    text: {
      en: `I can help you find general health information and the right kind of care. For questions about your own health, you can ask a licensed doctor in writing: you will get a written answer, and you can add up to two follow-up questions.`,
      de: `Ich helfe Ihnen, allgemeine Gesundheitsinformationen und die richtige Versorgung zu finden. Fragen zu Ihrer eigenen Gesundheit können Sie schriftlich einer zugelassenen Ärztin oder einem Arzt stellen: Sie erhalten eine schriftliche Antwort und können bis zu zwei Nachfragen stellen.`,
      fr: `Je vous aide à trouver des informations de santé générales et le bon type de soins. Pour une question sur votre santé, vous pouvez écrire à un médecin diplômé : vous recevrez une réponse écrite et pourrez poser jusqu’à deux questions de suivi.`,
      es: `Le ayudo a encontrar información de salud general y la atención adecuada. Para preguntas sobre su propia salud, puede escribir a un médico colegiado: recibirá una respuesta por escrito y podrá hacer hasta dos preguntas de seguimiento.`,
      nl: `Ik help u algemene gezondheidsinformatie en de juiste zorg te vinden. Vragen over uw eigen gezondheid kunt u schriftelijk aan een bevoegde arts stellen: u krijgt een schriftelijk antwoord en kunt tot twee vervolgvragen stellen.`,
      ar: `أساعدك في العثور على معلومات صحية عامة ونوع الرعاية المناسب. ولأسئلة صحتك الخاصة، يمكنك أن تسأل طبيبًا مرخصًا كتابةً: ستحصل على إجابة مكتوبة ويمكنك إضافة سؤالين للمتابعة.`,
    },
    withoutPlan: {
      en: `I can help you find general health information and the right kind of care. Your plan does not include written questions to a doctor here, so for questions about your own health, please contact your own doctor or practice. In an emergency, call your local emergency number.`,
      de: `Ich helfe Ihnen, allgemeine Gesundheitsinformationen und die richtige Versorgung zu finden. Ihr Tarif enthält hier keine schriftlichen Fragen an Ärzte; mit Fragen zu Ihrer eigenen Gesundheit wenden Sie sich bitte an Ihre Hausarztpraxis. Wählen Sie im Notfall den Notruf 112.`,
      fr: `Je vous aide à trouver des informations de santé générales et le bon type de soins. Votre formule ne comprend pas de questions écrites à un médecin ici : pour une question sur votre santé, contactez votre médecin traitant. En cas d’urgence, appelez les urgences (112).`,
      es: `Le ayudo a encontrar información de salud general y la atención adecuada. Su plan no incluye preguntas por escrito a un médico aquí; para preguntas sobre su propia salud, consulte a su médico o centro de salud. En una emergencia, llame al número de emergencias (112).`,
      nl: `Ik help u algemene gezondheidsinformatie en de juiste zorg te vinden. Uw pakket bevat hier geen schriftelijke vragen aan een arts; neem voor vragen over uw gezondheid contact op met uw huisarts. Bel in een noodgeval het alarmnummer (112).`,
      ar: `أساعدك في العثور على معلومات صحية عامة ونوع الرعاية المناسب. خطتك لا تشمل أسئلة مكتوبة إلى طبيب هنا، لذا يُرجى التواصل مع طبيبك أو عيادتك بشأن أسئلة صحتك الخاصة. وفي حالات الطوارئ، اتصل برقم الطوارئ المحلي.`,
    },
  },
];

const GENERAL: Texts = {
  en: `I can share general health information and help you decide where to go next. Could you tell me a bit more about what you would like to know?`,
  de: `Ich kann allgemeine Gesundheitsinformationen geben und Ihnen helfen, den nächsten Schritt zu finden. Können Sie etwas genauer sagen, was Sie wissen möchten?`,
  fr: `Je peux donner des informations de santé générales et vous aider à choisir la suite. Pouvez-vous préciser ce que vous aimeriez savoir ?`,
  es: `Puedo darle información de salud general y ayudarle a decidir el siguiente paso. ¿Puede contarme un poco más sobre lo que quiere saber?`,
  nl: `Ik kan algemene gezondheidsinformatie geven en u helpen de volgende stap te kiezen. Kunt u iets meer vertellen over wat u wilt weten?`,
  ar: `يمكنني تقديم معلومات صحية عامة ومساعدتك في اختيار الخطوة التالية. هل يمكنك إخباري بالمزيد عما تريد معرفته؟`,
};

const ASK_A_DOCTOR: Texts = {
  en: `I can't tell what is causing this, but a licensed doctor can look at it with you. You can ask a doctor in writing here, with the details you just shared.

In the meantime:
- Rest, and drink enough fluids.
- Note when it started and what makes it better or worse.
- Get urgent care if it gets much worse or new symptoms appear.`,
  de: `Ich kann nicht sagen, woher das kommt, aber eine zugelassene Ärztin oder ein Arzt kann es sich mit Ihnen ansehen. Sie können hier schriftlich fragen, mit den Angaben, die Sie gerade gemacht haben.

Bis dahin:
- Ruhen Sie sich aus und trinken Sie genug.
- Notieren Sie, wann es begann und was es bessert oder verschlimmert.
- Suchen Sie dringend Hilfe, wenn es deutlich schlimmer wird oder neue Beschwerden auftreten.`,
  fr: `Je ne peux pas dire d’où cela vient, mais un médecin diplômé peut l’examiner avec vous. Vous pouvez lui écrire ici, avec les détails que vous venez de donner.

En attendant :
- Reposez-vous et buvez suffisamment.
- Notez quand cela a commencé et ce qui l’améliore ou l’aggrave.
- Consultez en urgence si cela s’aggrave nettement ou si de nouveaux symptômes apparaissent.`,
  es: `No puedo saber qué lo causa, pero un médico colegiado puede verlo con usted. Puede preguntarle aquí por escrito, con los detalles que acaba de dar.

Mientras tanto:
- Descanse y beba suficiente líquido.
- Anote cuándo empezó y qué lo mejora o empeora.
- Busque atención urgente si empeora mucho o aparecen síntomas nuevos.`,
  nl: `Ik kan niet zeggen waar dit door komt, maar een bevoegde arts kan er met u naar kijken. U kunt hier schriftelijk een vraag stellen, met wat u net vertelde.

Intussen:
- Neem rust en drink voldoende.
- Noteer wanneer het begon en wat het beter of erger maakt.
- Zoek dringend hulp als het veel erger wordt of er nieuwe klachten bijkomen.`,
  ar: `لا أستطيع معرفة سبب ذلك، لكن طبيبًا مرخصًا يمكنه النظر فيه معك. يمكنك أن تسأل طبيبًا كتابةً هنا، مع التفاصيل التي ذكرتها للتو.

في هذه الأثناء:
- استرح واشرب كمية كافية من السوائل.
- دوّن متى بدأ الأمر وما الذي يحسّنه أو يسوئه.
- اطلب رعاية عاجلة إذا ساءت الحالة كثيرًا أو ظهرت أعراض جديدة.`,
};

/**
 * The first paragraph of the symptom reply for a member whose plan includes no written questions
 * to a doctor: the navigator does not offer what the member cannot do here.
 */
const SEE_YOUR_DOCTOR: Texts = {
  en: `I can't tell what is causing this, but a doctor should look at it with you. Your plan does not include written questions to a doctor here, so please contact your own doctor or practice.`,
  de: `Ich kann nicht sagen, woher das kommt, aber eine Ärztin oder ein Arzt sollte es sich mit Ihnen ansehen. Ihr Tarif enthält hier keine schriftlichen Fragen an Ärzte; wenden Sie sich bitte an Ihre Hausarztpraxis.`,
  fr: `Je ne peux pas dire d’où cela vient, mais un médecin devrait l’examiner avec vous. Votre formule ne comprend pas de questions écrites à un médecin ici : contactez votre médecin traitant.`,
  es: `No puedo saber qué lo causa, pero un médico debería verlo con usted. Su plan no incluye preguntas por escrito a un médico aquí; consulte a su médico o centro de salud.`,
  nl: `Ik kan niet zeggen waar dit door komt, maar een arts zou er met u naar moeten kijken. Uw pakket bevat hier geen schriftelijke vragen aan een arts; neem contact op met uw eigen huisarts.`,
  ar: `لا أستطيع معرفة سبب ذلك، لكن ينبغي أن ينظر فيه طبيب معك. خطتك لا تشمل أسئلة مكتوبة إلى طبيب هنا، لذا يُرجى التواصل مع طبيبك أو عيادتك.`,
};

/** The first paragraph of an emergency reply: call for help now. */
const EMERGENCY_CALL: Texts = {
  en: `**This may need urgent help.** If you or someone with you is in danger, call your local emergency number now (112 in Europe, 999 in the UK, 911 in North America).`,
  de: `**Das kann dringende Hilfe brauchen.** Wenn Sie oder jemand bei Ihnen in Gefahr ist, rufen Sie sofort den Notruf (112).`,
  fr: `**Cela peut nécessiter une aide urgente.** Si vous ou une personne près de vous êtes en danger, appelez tout de suite les urgences (112, ou le 15 en France).`,
  es: `**Esto puede necesitar ayuda urgente.** Si usted o alguien a su lado está en peligro, llame ahora al número de emergencias (112).`,
  nl: `**Dit kan dringend hulp nodig hebben.** Bent u of iemand bij u in gevaar, bel dan nu het alarmnummer (112).`,
  ar: `**قد يحتاج هذا إلى مساعدة عاجلة.** إذا كنت أنت أو شخص معك في خطر، فاتصل برقم الطوارئ المحلي الآن (112 في أوروبا، 997 أو 999 في كثير من الدول العربية).`,
};

/** What follows the call for help, for a member whose plan includes written questions to a doctor. */
const EMERGENCY_THEN_ASK: Texts = {
  en: `I can't assess emergencies here. Once you are safe, you can ask a doctor in writing for follow-up advice.`,
  de: `Notfälle kann ich hier nicht einschätzen. Sobald Sie in Sicherheit sind, können Sie schriftlich eine Ärztin oder einen Arzt fragen.`,
  fr: `Je ne peux pas évaluer une urgence ici. Une fois en sécurité, vous pourrez écrire à un médecin pour un suivi.`,
  es: `No puedo valorar emergencias aquí. Cuando esté a salvo, puede escribir a un médico para el seguimiento.`,
  nl: `Noodgevallen kan ik hier niet beoordelen. Zodra u veilig bent, kunt u schriftelijk een arts om advies vragen.`,
  ar: `لا أستطيع تقييم حالات الطوارئ هنا. بعد أن تكون في أمان، يمكنك أن تسأل طبيبًا كتابةً للمتابعة.`,
};

/** What follows the call for help for a member whose plan does not: their own doctor, nothing here. */
const EMERGENCY_THEN_OWN_DOCTOR: Texts = {
  en: `I can't assess emergencies here. Once you are safe, contact your own doctor or practice for follow-up advice.`,
  de: `Notfälle kann ich hier nicht einschätzen. Sobald Sie in Sicherheit sind, besprechen Sie alles Weitere mit Ihrer Hausarztpraxis.`,
  fr: `Je ne peux pas évaluer une urgence ici. Une fois en sécurité, contactez votre médecin traitant pour un suivi.`,
  es: `No puedo valorar emergencias aquí. Cuando esté a salvo, consulte a su médico o centro de salud para el seguimiento.`,
  nl: `Noodgevallen kan ik hier niet beoordelen. Zodra u veilig bent, neem dan voor verder advies contact op met uw eigen huisarts.`,
  ar: `لا أستطيع تقييم حالات الطوارئ هنا. بعد أن تكون في أمان، تواصل مع طبيبك أو عيادتك للمتابعة.`,
};

const GREETING: Texts = {
  en: `Hello! I'm your health navigator. I can share general health information and help you find the right care. What would you like to know?`,
  de: `Hallo! Ich bin Ihr Gesundheitslotse. Ich gebe allgemeine Gesundheitsinformationen und helfe Ihnen, die richtige Versorgung zu finden. Was möchten Sie wissen?`,
  fr: `Bonjour ! Je suis votre guide santé. Je donne des informations de santé générales et vous aide à trouver les bons soins. Que souhaitez-vous savoir ?`,
  es: `¡Hola! Soy su orientador de salud. Doy información de salud general y le ayudo a encontrar la atención adecuada. ¿Qué le gustaría saber?`,
  nl: `Hallo! Ik ben uw gezondheidsgids. Ik geef algemene gezondheidsinformatie en help u de juiste zorg te vinden. Wat wilt u weten?`,
  ar: `مرحبًا! أنا مرشدك الصحي. أقدّم معلومات صحية عامة وأساعدك في العثور على الرعاية المناسبة. ماذا تريد أن تعرف؟`,
};

/** One of the six languages, from a member's ISO 639-1 code (`de`, `de-AT`); English otherwise. */
function languageOf(code: string | undefined): Language {
  const base = (code ?? '').toLowerCase().split(/[-_]/)[0] ?? '';
  return (NAVIGATOR_LANGUAGES as readonly string[]).includes(base) ? (base as Language) : 'en';
}

/** The navigator's greeting in the member's language. */
export function navigatorGreeting(language?: string): string {
  return GREETING[languageOf(language)];
}

/**
 * The navigator's reply to `message`, in the member's language. A member whose plan includes no
 * written questions to a doctor (`mayAskDoctor: false`) is offered none in any reply (an emergency,
 * a symptom, how this works): they are told to see their own doctor instead.
 */
export function navigatorRespond(
  message: string,
  language?: string,
  { mayAskDoctor = true }: { mayAskDoctor?: boolean } = {},
): NavigatorResponse {
  const lang = languageOf(language);
  if (EMERGENCY.test(message)) {
    const then = (mayAskDoctor ? EMERGENCY_THEN_ASK : EMERGENCY_THEN_OWN_DOCTOR)[lang];
    return { text: `${EMERGENCY_CALL[lang]}\n\n${then}`, suggestsDoctor: true, urgent: true };
  }
  if (SYMPTOM.test(message)) {
    if (mayAskDoctor) return { text: ASK_A_DOCTOR[lang], suggestsDoctor: true, urgent: false };
    // The same advice for the meantime, after a first paragraph that offers nothing the plan lacks.
    const meantime = ASK_A_DOCTOR[lang].slice(ASK_A_DOCTOR[lang].indexOf('\n\n'));
    return { text: SEE_YOUR_DOCTOR[lang] + meantime, suggestsDoctor: true, urgent: false };
  }
  const topic = TOPICS.find((t) => t.match.test(message));
  const texts = !topic ? GENERAL : !mayAskDoctor && topic.withoutPlan ? topic.withoutPlan : topic.text;
  return { text: texts[lang], suggestsDoctor: false, urgent: false };
}

/** The English greeting, as the seed data and older callers know it. */
export const NAVIGATOR_GREETING = GREETING.en;
