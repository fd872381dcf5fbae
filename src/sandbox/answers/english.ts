/**
 * The simulated professionals' answers in English: for each topic what helps, in a few steps,
 * and when to get help in person, with a link to a reliable public source. Careful general
 * guidance, never a diagnosis.
 */
import type { TopicName } from './topics.js';

export const ENGLISH: Record<TopicName | 'general', string> = {
  skin: `Thank you for your question. Skin changes like the one you describe are common and usually harmless, but a few things help us tell them apart:

- **Keep the skin moisturised** with a fragrance-free emollient twice a day.
- **Avoid new soaps, detergents or cosmetics** until it settles.
- **Take a photo every few days** so you can see whether it is spreading or changing.

Please see a doctor in person if the area becomes hot, swollen or painful, if you develop a fever, or if a mole changes shape, colour or size. The [British Association of Dermatologists](https://www.bad.org.uk/patient-information-leaflets) has reliable leaflets on common conditions.`,
  childSkin: `Thank you for reaching out. Rashes are very common in young children; most come with a mild virus or from irritated skin and fade within a few days:

- **Do the glass test**: press the side of a clear glass firmly on the rash. If the spots do not fade under the glass, call emergency services straight away.
- **Keep the skin cool and moisturised**: loose cotton clothes and a fragrance-free emollient; no new soaps or bubble bath for now.
- **Watch how your child is drinking, playing and sleeping**, and take a photo each day to see whether the rash spreads.

Please see a doctor the same day if the rash comes with a fever, your child seems unusually sleepy or irritable, or the skin blisters, weeps or looks infected. More: [NHS: Rashes in babies and children](https://www.nhs.uk/conditions/rashes-babies-and-children/).`,
  child: `Thank you for reaching out. For children, the most useful signs are how they are **drinking, playing and sleeping**:

1. Offer small, frequent drinks and watch for wet nappies or regular trips to the toilet.
2. Paracetamol or ibuprofen in the dose for their age can ease discomfort; never give aspirin to children under 16.
3. Let them rest, and check on them during the night.

Call emergency services if your child is unusually drowsy, has a rash that does not fade under a glass, or is struggling to breathe. More guidance: [NHS: Fever in children](https://www.nhs.uk/conditions/fever-in-children/).`,
  medicine: `Thanks for checking before you take anything. A few general points:

- **Read the leaflet** that comes with the medicine for the dose and the maximum in 24 hours.
- **Tell your pharmacist about everything else you take**, including supplements and herbal remedies, as some combinations interact.
- **Do not double a dose** you have missed; take the next one at the usual time.

If you notice swelling of the face or lips, a new rash, or difficulty breathing after a new medicine, stop it and get urgent help. You can also look up your medicine at [medicines.org.uk](https://www.medicines.org.uk/emc).`,
  vitamin: `Thank you for your question. A balanced diet covers most needs, with one common exception:

- **Vitamin D:** from October to March most people in northern countries do not make enough from sunlight. A daily supplement of **10 micrograms (400 IU)** is generally recommended for adults in those months.
- **Other supplements** are rarely needed unless a blood test shows a shortage, or you are pregnant, vegan or over 65.
- **More is not better:** high doses of vitamins A and D can be harmful; stay within the dose on the pack.

If you take other medicines, or have kidney problems, ask your pharmacist before starting a supplement. Read more at [NHS: Vitamin D](https://www.nhs.uk/conditions/vitamins-and-minerals/vitamin-d/).`,
  heart: `Thank you for your question. Heart and blood pressure concerns deserve a careful look:

1. **Measure your blood pressure** at home at the same time each day for a week, and note the readings.
2. **Limit salt, alcohol and caffeine**, and aim for 150 minutes of moderate activity a week.
3. **Book a check with your GP** to review the readings and, if needed, blood tests.

Chest pain that spreads to the arm, jaw or back, or comes with breathlessness or sweating, is an emergency: call your local emergency number straight away. See also [British Heart Foundation](https://www.bhf.org.uk/informationsupport).`,
  cold: `Thank you for your question. Most coughs, colds and sore throats are caused by viruses and get better on their own within one to three weeks:

- **Rest and drink plenty of fluids**; warm drinks with honey can soothe a cough (not for children under one).
- **Paracetamol or ibuprofen** can ease a fever, aches and a sore throat; follow the dose on the pack.
- **Antibiotics do not help** with viral infections and can cause side effects.

Please see a doctor if you have a fever above 39 °C for more than three days, a cough lasting over three weeks, chest pain, or if you cough up blood. See [NHS: Cough](https://www.nhs.uk/conditions/cough/).`,
  headache: `Thank you for your question. Most headaches are tension headaches or migraines, and a few habits make them less frequent:

1. **Drink enough water** and do not skip meals.
2. **Keep regular sleep times**, and take breaks from screens.
3. **Use simple pain relief** for no more than two or three days a week, so it does not cause rebound headaches.

Get urgent help for a sudden, severe headache ("the worst ever"), a headache with a stiff neck, fever and rash, or with weakness, confusion or trouble speaking. More at [NHS: Headaches](https://www.nhs.uk/conditions/headaches/).`,
  sleep: `Thank you for your question. Waking early and not getting back to sleep is very common, and it usually improves with a few changes:

- **Get up at the same time every day**, weekends included, even after a poor night.
- **If you are awake for more than 20 minutes, get up** and do something quiet in dim light until you feel sleepy.
- **Avoid caffeine after midday and alcohol in the evening**; both break up sleep.

If poor sleep lasts more than a month, or you feel low, anxious or very tired during the day, please book an appointment: treatments such as CBT for insomnia work well. See [NHS: Insomnia](https://www.nhs.uk/conditions/insomnia/).`,
  stomach: `Thank you for your question. Most stomach upsets settle within a few days:

1. **Sip fluids often**: water, or oral rehydration solution if you have diarrhoea or are vomiting.
2. **Eat small, plain meals** when you feel ready, and avoid alcohol, fatty and spicy food for a while.
3. **For heartburn**, avoid eating in the three hours before bed and raise the head of the bed slightly.

Please see a doctor if there is blood in your stool or vomit, severe or constant pain, signs of dehydration, or if symptoms last more than a week. See [NHS: Stomach ache](https://www.nhs.uk/conditions/stomach-ache/).`,
  allergy: `Thank you for your question. Hay fever and allergies can usually be eased well:

- **A non-drowsy antihistamine** helps with sneezing and itchy eyes.
- **Shower and change your clothes** after being outdoors, and keep windows closed in the morning in pollen season.
- **A steroid nasal spray** helps with a blocked nose, though it takes a few days to work.

Get help straight away for wheezing, shortness of breath or swelling of the face. See [NHS: Hay fever](https://www.nhs.uk/conditions/hay-fever/).`,
  back: `Thank you for your question. Most back pain gets better within a few weeks:

- **Keep moving**: walking helps more than bed rest.
- **Heat and simple pain relief** make moving easier.
- **Gentle stretches**, as soon as you can, help stop it coming back.

Get urgent help for numbness around your bottom, problems passing urine, or weakness in your legs. See [NHS: Back pain](https://www.nhs.uk/conditions/back-pain/).`,
  anxiety: `Thank you for sharing this. What often helps with stress and anxiety:

- **Breathe slowly**: in for four seconds, out for six, for a few minutes.
- **Activity, daylight and regular times** steady your mood.
- **Talk to someone** you trust.

If anxiety is taking over your days, please book an appointment. If you have thoughts of harming yourself, call your local emergency number now. See [NHS: Anxiety](https://www.nhs.uk/mental-health/conditions/generalised-anxiety-disorder/).`,
  general: `Thank you for your question. Based on what you describe, here is what I would suggest:

1. **Rest and drink plenty of fluids** over the next few days.
2. **Keep a short diary** of when the symptoms occur and what makes them better or worse.
3. **Use simple pain relief** such as paracetamol if needed, following the dose on the pack.

Please see a doctor in person if things get worse, if new symptoms appear, or if you are not improving within a week. If you ever feel very unwell, call your local emergency number. You can read more at [NHS inform](https://www.nhsinform.scot/illnesses-and-conditions).`,
};
