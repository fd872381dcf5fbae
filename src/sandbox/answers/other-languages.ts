/**
 * The simulated professionals' answers in German, French, Spanish, Dutch and Arabic: for each
 * topic a short note, a few steps, and when to get help in person. Careful general guidance, never
 * a diagnosis. English is in english.ts.
 */
import type { AnswerLanguage, TopicName } from './topics.js';

type Answers = Record<TopicName | 'general', string>;

const de: Answers = {
  childSkin: `Danke für Ihre Nachricht. Ausschläge sind bei kleinen Kindern sehr häufig; meist kommen sie mit einem leichten Virusinfekt oder von gereizter Haut und verblassen in wenigen Tagen:

- **Machen Sie den Glastest**: Drücken Sie ein durchsichtiges Glas fest auf den Ausschlag. Verblassen die Flecken darunter nicht, rufen Sie sofort den Notruf.
- **Halten Sie die Haut kühl und gepflegt**: lockere Baumwollkleidung und eine parfümfreie Creme, vorerst keine neuen Seifen oder Badezusätze.
- **Achten Sie darauf, wie Ihr Kind trinkt, spielt und schläft**, und machen Sie täglich ein Foto, um zu sehen, ob sich der Ausschlag ausbreitet.

Bitte gehen Sie noch am selben Tag zur Kinderärztin oder zum Kinderarzt, wenn Fieber dazukommt, Ihr Kind ungewöhnlich schläfrig oder unruhig ist oder die Haut Blasen bildet, nässt oder entzündet aussieht.`,
  skin: `Danke für Ihre Frage. Hautveränderungen wie diese sind häufig und meist harmlos:

- **Pflegen Sie die Haut** zweimal täglich mit einer parfümfreien Creme.
- **Meiden Sie neue Seifen, Waschmittel oder Kosmetik**, bis es abklingt.
- **Machen Sie alle paar Tage ein Foto**, um Veränderungen zu sehen.

Bitte lassen Sie es ärztlich ansehen, wenn die Stelle heiß, geschwollen oder schmerzhaft wird, Fieber dazukommt oder sich ein Muttermal verändert.`,
  child: `Danke für Ihre Nachricht. Bei Kindern zählt vor allem, wie sie **trinken, spielen und schlafen**:

1. Bieten Sie oft kleine Schlucke an und achten Sie auf nasse Windeln.
2. Paracetamol oder Ibuprofen in der Dosis für das Alter lindert Beschwerden; kein Aspirin unter 16 Jahren.
3. Lassen Sie Ihr Kind ruhen und sehen Sie nachts nach ihm.

Rufen Sie den Notruf, wenn Ihr Kind ungewöhnlich schläfrig ist, einen Ausschlag hat, der unter einem Glas nicht verblasst, oder schwer atmet.`,
  medicine: `Gut, dass Sie vorher fragen. Einige allgemeine Hinweise:

- **Lesen Sie den Beipackzettel** für Dosis und Höchstmenge in 24 Stunden.
- **Sagen Sie Ihrer Apotheke, was Sie sonst einnehmen**, auch Nahrungsergänzung.
- **Nehmen Sie eine vergessene Dosis nicht doppelt.**

Bei Schwellung von Gesicht oder Lippen, neuem Ausschlag oder Atemnot nach einem neuen Medikament: absetzen und sofort Hilfe holen.`,
  allergy: `Danke für Ihre Frage. Heuschnupfen und Allergien lassen sich meist gut lindern:

- **Ein Antihistaminikum**, das nicht müde macht, hilft bei Niesen und juckenden Augen.
- **Duschen und Kleidung wechseln** nach dem Aufenthalt draußen; Fenster zur Pollenzeit morgens geschlossen halten.
- **Ein Nasenspray mit Kortison** hilft bei verstopfter Nase, braucht aber einige Tage.

Bei pfeifendem Atem, Atemnot oder Schwellung im Gesicht holen Sie bitte sofort Hilfe.`,
  vitamin: `Danke für Ihre Frage. Eine ausgewogene Ernährung deckt das meiste ab, mit einer Ausnahme:

- **Vitamin D:** von Oktober bis März bilden viele Menschen zu wenig; **10 Mikrogramm (400 IE)** täglich werden Erwachsenen oft empfohlen.
- **Andere Präparate** braucht es selten, außer ein Bluttest zeigt einen Mangel.
- **Mehr ist nicht besser:** bleiben Sie bei der Dosis auf der Packung.

Wenn Sie andere Medikamente nehmen oder Nierenprobleme haben, fragen Sie vorher Ihre Apotheke.`,
  heart: `Danke für Ihre Frage. Herz und Blutdruck verdienen einen genauen Blick:

1. **Messen Sie eine Woche lang** täglich zur gleichen Zeit und notieren Sie die Werte.
2. **Weniger Salz, Alkohol und Koffein**, dazu 150 Minuten Bewegung pro Woche.
3. **Besprechen Sie die Werte in der Hausarztpraxis.**

Brustschmerz, der in Arm, Kiefer oder Rücken ausstrahlt oder mit Atemnot kommt, ist ein Notfall: rufen Sie sofort den Notruf.`,
  cold: `Danke für Ihre Frage. Die meisten Erkältungen, Husten und Halsschmerzen werden von Viren verursacht und heilen in ein bis drei Wochen:

- **Ruhen Sie sich aus und trinken Sie viel**; warme Getränke mit Honig lindern Husten.
- **Paracetamol oder Ibuprofen** helfen gegen Fieber und Schmerzen.
- **Antibiotika helfen bei Viren nicht.**

Bitte gehen Sie zur Ärztin oder zum Arzt bei Fieber über 39 °C länger als drei Tage, Husten über drei Wochen oder Brustschmerzen.`,
  headache: `Danke für Ihre Frage. Die meisten Kopfschmerzen sind Spannungskopfschmerzen oder Migräne:

1. **Trinken Sie genug** und lassen Sie keine Mahlzeit aus.
2. **Halten Sie feste Schlafzeiten** ein und machen Sie Bildschirmpausen.
3. **Schmerzmittel höchstens an zwei bis drei Tagen pro Woche**, sonst drohen Rebound-Kopfschmerzen.

Holen Sie sofort Hilfe bei plötzlichem, sehr starkem Kopfschmerz, steifem Nacken mit Fieber oder bei Schwäche und Sprachstörungen.`,
  sleep: `Danke für Ihre Frage. Früh aufwachen ist sehr häufig und bessert sich oft mit kleinen Änderungen:

- **Stehen Sie jeden Tag zur gleichen Zeit auf**, auch am Wochenende.
- **Liegen Sie länger als 20 Minuten wach, stehen Sie auf** und tun Sie etwas Ruhiges.
- **Kein Koffein ab mittags, wenig Alkohol am Abend.**

Hält der schlechte Schlaf länger als einen Monat an oder fühlen Sie sich niedergeschlagen, vereinbaren Sie bitte einen Termin.`,
  stomach: `Danke für Ihre Frage. Die meisten Magen-Darm-Beschwerden klingen in wenigen Tagen ab:

1. **Trinken Sie oft kleine Mengen**, bei Durchfall eine Elektrolytlösung.
2. **Essen Sie kleine, leichte Mahlzeiten**, ohne Alkohol und Fettes.
3. **Bei Sodbrennen** drei Stunden vor dem Schlafen nichts mehr essen.

Bitte lassen Sie sich untersuchen bei Blut im Stuhl oder Erbrochenen, starken Schmerzen oder wenn es länger als eine Woche dauert.`,
  back: `Danke für Ihre Frage. Rückenschmerzen bessern sich meist innerhalb von einigen Wochen:

- **Bleiben Sie in Bewegung**: Spazierengehen hilft mehr als Bettruhe.
- **Wärme und einfache Schmerzmittel** erleichtern die Bewegung.
- **Sanfte Dehnübungen**, sobald es geht, beugen Rückfällen vor.

Holen Sie sofort Hilfe bei Taubheit im Gesäßbereich, Problemen beim Wasserlassen oder Schwäche in den Beinen.`,
  anxiety: `Danke, dass Sie das teilen. Was bei Stress und Angst oft hilft:

- **Ruhiges Atmen**: vier Sekunden ein, sechs Sekunden aus, einige Minuten lang.
- **Bewegung, Tageslicht und feste Schlafzeiten** stabilisieren die Stimmung.
- **Sprechen Sie mit jemandem**, dem Sie vertrauen.

Wenn die Angst Ihren Alltag bestimmt, vereinbaren Sie bitte einen Termin. Bei Gedanken, sich etwas anzutun, rufen Sie sofort den Notruf.`,
  general: `Danke für Ihre Frage. Nach dem, was Sie beschreiben, schlage ich vor:

1. **Ruhen Sie sich aus und trinken Sie ausreichend** in den nächsten Tagen.
2. **Notieren Sie**, wann die Beschwerden auftreten und was sie bessert oder verschlimmert.
3. **Einfache Schmerzmittel** bei Bedarf, nach Packungsangabe.

Bitte gehen Sie zur Ärztin oder zum Arzt, wenn es schlimmer wird, neue Beschwerden auftreten oder es nach einer Woche nicht besser ist.`,
};

const fr: Answers = {
  childSkin: `Merci de votre message. Les éruptions sont très fréquentes chez les jeunes enfants ; la plupart accompagnent un petit virus ou viennent d'une peau irritée, et s'effacent en quelques jours :

- **Faites le test du verre** : appuyez fermement un verre transparent sur l'éruption. Si les taches ne s'effacent pas sous le verre, appelez les urgences immédiatement.
- **Gardez la peau au frais et hydratée** : vêtements amples en coton et crème sans parfum, pas de nouveau savon ni de bain moussant pour l'instant.
- **Observez comment votre enfant boit, joue et dort**, et prenez une photo chaque jour pour voir si l'éruption s'étend.

Consultez le jour même si l'éruption s'accompagne de fièvre, si votre enfant est anormalement somnolent ou grognon, ou si la peau fait des cloques, suinte ou semble infectée.`,
  skin: `Merci pour votre question. Les changements de peau comme celui-ci sont fréquents et le plus souvent bénins :

- **Hydratez la peau** deux fois par jour avec une crème sans parfum.
- **Évitez les nouveaux savons, lessives ou cosmétiques** le temps que cela se calme.
- **Prenez une photo tous les quelques jours** pour voir si cela évolue.

Consultez si la zone devient chaude, gonflée ou douloureuse, si de la fièvre apparaît, ou si un grain de beauté change.`,
  child: `Merci de votre message. Chez l'enfant, l'essentiel est de voir comment il **boit, joue et dort** :

1. Proposez souvent de petites gorgées et surveillez les couches mouillées.
2. Le paracétamol ou l'ibuprofène à la dose de son âge soulage ; jamais d'aspirine avant 16 ans.
3. Laissez-le se reposer et allez le voir pendant la nuit.

Appelez les urgences si votre enfant est anormalement somnolent, a une éruption qui ne s'efface pas sous un verre, ou respire difficilement.`,
  medicine: `Merci de vérifier avant de prendre quoi que ce soit. Quelques repères :

- **Lisez la notice** pour la dose et le maximum sur 24 heures.
- **Dites à votre pharmacien tout ce que vous prenez**, compléments compris.
- **Ne doublez pas une dose oubliée.**

En cas de gonflement du visage ou des lèvres, d'éruption nouvelle ou de gêne respiratoire après un nouveau médicament, arrêtez-le et demandez de l'aide sans attendre.`,
  allergy: `Merci pour votre question. Le rhume des foins et les allergies se soulagent bien la plupart du temps :

- **Un antihistaminique non somnolent** aide pour les éternuements et les yeux qui piquent.
- **Douchez-vous et changez de vêtements** après être sorti ; fermez les fenêtres le matin en saison.
- **Un spray nasal à la cortisone** aide pour le nez bouché, en quelques jours.

En cas de sifflements, de difficulté à respirer ou de gonflement du visage, demandez de l'aide immédiatement.`,
  vitamin: `Merci pour votre question. Une alimentation équilibrée couvre l'essentiel, avec une exception :

- **Vitamine D :** d'octobre à mars, beaucoup en manquent ; **10 microgrammes (400 UI)** par jour sont souvent conseillés aux adultes.
- **Les autres compléments** sont rarement utiles sans carence prouvée par une prise de sang.
- **Plus n'est pas mieux :** respectez la dose indiquée.

Si vous prenez d'autres médicaments ou avez des problèmes de reins, demandez d'abord à votre pharmacien.`,
  heart: `Merci pour votre question. Le cœur et la tension méritent un examen attentif :

1. **Mesurez votre tension** chaque jour à la même heure pendant une semaine et notez-la.
2. **Moins de sel, d'alcool et de caféine**, et 150 minutes d'activité par semaine.
3. **Faites le point avec votre médecin traitant.**

Une douleur à la poitrine qui irradie vers le bras, la mâchoire ou le dos, ou avec essoufflement, est une urgence : appelez les secours.`,
  cold: `Merci pour votre question. La plupart des rhumes, toux et maux de gorge sont viraux et guérissent en une à trois semaines :

- **Reposez-vous et buvez beaucoup** ; une boisson chaude au miel calme la toux.
- **Le paracétamol ou l'ibuprofène** soulagent fièvre et douleurs.
- **Les antibiotiques n'agissent pas** sur les virus.

Consultez en cas de fièvre au-dessus de 39 °C plus de trois jours, de toux au-delà de trois semaines ou de douleur à la poitrine.`,
  headache: `Merci pour votre question. La plupart des maux de tête sont des céphalées de tension ou des migraines :

1. **Buvez suffisamment** et ne sautez pas de repas.
2. **Gardez des horaires de sommeil réguliers** et faites des pauses d'écran.
3. **Antidouleurs pas plus de deux ou trois jours par semaine**, pour éviter l'effet rebond.

Demandez de l'aide en urgence pour un mal de tête soudain et très violent, une raideur de la nuque avec fièvre, ou une faiblesse ou des troubles de la parole.`,
  sleep: `Merci pour votre question. Se réveiller tôt sans se rendormir est très courant et s'améliore souvent :

- **Levez-vous à la même heure chaque jour**, week-end compris.
- **Éveillé plus de 20 minutes ? Levez-vous** et faites quelque chose de calme.
- **Pas de caféine après midi**, peu d'alcool le soir.

Si cela dure plus d'un mois, ou si vous vous sentez déprimé, prenez rendez-vous.`,
  stomach: `Merci pour votre question. La plupart des troubles digestifs passent en quelques jours :

1. **Buvez souvent par petites quantités**, une solution de réhydratation en cas de diarrhée.
2. **Mangez léger**, sans alcool ni plats gras.
3. **Pour les brûlures d'estomac**, ne mangez plus dans les trois heures avant le coucher.

Consultez en cas de sang dans les selles ou les vomissements, de douleur forte, ou si cela dure plus d'une semaine.`,
  back: `Merci pour votre question. Le mal de dos s'améliore en général en quelques semaines :

- **Restez actif** : marcher aide plus que rester au lit.
- **La chaleur et un antidouleur simple** facilitent le mouvement.
- **Des étirements doux**, dès que possible, évitent les récidives.

Demandez de l'aide en urgence en cas d'engourdissement du bassin, de troubles urinaires ou de faiblesse des jambes.`,
  anxiety: `Merci de nous en parler. Ce qui aide souvent face au stress et à l'anxiété :

- **Respirez lentement** : inspirez quatre secondes, expirez six, pendant quelques minutes.
- **Activité, lumière du jour et horaires réguliers** stabilisent l'humeur.
- **Parlez à quelqu'un** de confiance.

Si l'anxiété prend le dessus sur votre quotidien, prenez rendez-vous. Si vous pensez à vous faire du mal, appelez les secours immédiatement.`,
  general: `Merci pour votre question. D'après ce que vous décrivez, voici ce que je vous conseille :

1. **Reposez-vous et buvez suffisamment** ces prochains jours.
2. **Notez** quand les symptômes apparaissent et ce qui les améliore ou les aggrave.
3. **Un antidouleur simple** si besoin, selon la notice.

Consultez si cela s'aggrave, si de nouveaux symptômes apparaissent ou sans amélioration en une semaine.`,
};

const es: Answers = {
  childSkin: `Gracias por escribir. Las erupciones son muy frecuentes en niños pequeños; la mayoría acompañan a un virus leve o vienen de una piel irritada, y desaparecen en pocos días:

- **Haz la prueba del vaso**: presiona con firmeza un vaso transparente sobre la erupción. Si las manchas no desaparecen bajo el vaso, llama a emergencias enseguida.
- **Mantén la piel fresca e hidratada**: ropa holgada de algodón y una crema sin perfume, sin jabones nuevos ni baños de espuma por ahora.
- **Observa cómo bebe, juega y duerme tu hijo**, y haz una foto cada día para ver si la erupción se extiende.

Consulta con el pediatra el mismo día si la erupción viene con fiebre, si está inusualmente adormilado o irritable, o si la piel hace ampollas, supura o parece infectada.`,
  skin: `Gracias por tu pregunta. Los cambios en la piel como este son frecuentes y casi siempre benignos:

- **Hidrata la piel** dos veces al día con una crema sin perfume.
- **Evita jabones, detergentes o cosméticos nuevos** hasta que mejore.
- **Haz una foto cada pocos días** para ver si cambia.

Consulta si la zona se pone caliente, hinchada o dolorosa, si aparece fiebre o si un lunar cambia.`,
  child: `Gracias por escribir. En los niños lo más importante es cómo **beben, juegan y duermen**:

1. Ofrécele sorbos pequeños a menudo y vigila que moje los pañales.
2. Paracetamol o ibuprofeno en la dosis para su edad alivian las molestias; nunca aspirina antes de los 16.
3. Déjale descansar y obsérvale durante la noche.

Llama a emergencias si está inusualmente adormilado, tiene manchas que no desaparecen al presionar con un vaso o le cuesta respirar.`,
  medicine: `Haces bien en preguntar antes. Algunas pautas generales:

- **Lee el prospecto** para la dosis y el máximo en 24 horas.
- **Cuenta a tu farmacéutico todo lo que tomas**, también suplementos.
- **No dupliques una dosis olvidada.**

Si notas hinchazón de cara o labios, una erupción nueva o dificultad para respirar tras un medicamento nuevo, déjalo y pide ayuda enseguida.`,
  allergy: `Gracias por tu pregunta. La fiebre del heno y las alergias suelen aliviarse bien:

- **Un antihistamínico que no dé sueño** ayuda con los estornudos y el picor de ojos.
- **Dúchate y cámbiate de ropa** al volver a casa; cierra las ventanas por la mañana en temporada.
- **Un espray nasal con corticoide** ayuda con la congestión en unos días.

Si tienes pitidos al respirar, falta de aire o hinchazón de la cara, pide ayuda de inmediato.`,
  vitamin: `Gracias por tu pregunta. Una dieta equilibrada cubre casi todo, con una excepción:

- **Vitamina D:** de octubre a marzo mucha gente no produce suficiente; a los adultos se les suele recomendar **10 microgramos (400 UI)** al día.
- **Otros suplementos** rara vez hacen falta sin un análisis que muestre un déficit.
- **Más no es mejor:** respeta la dosis del envase.

Si tomas otros medicamentos o tienes problemas de riñón, consulta antes a tu farmacéutico.`,
  heart: `Gracias por tu pregunta. El corazón y la tensión merecen atención:

1. **Mide tu tensión** a la misma hora cada día durante una semana y apúntala.
2. **Menos sal, alcohol y cafeína**, y 150 minutos de actividad a la semana.
3. **Revisa las cifras con tu médico de cabecera.**

Un dolor en el pecho que se extiende al brazo, la mandíbula o la espalda, o con falta de aire, es una urgencia: llama a emergencias.`,
  cold: `Gracias por tu pregunta. La mayoría de los resfriados, la tos y el dolor de garganta son víricos y se curan en una a tres semanas:

- **Descansa y bebe mucho líquido**; una bebida caliente con miel calma la tos.
- **Paracetamol o ibuprofeno** alivian la fiebre y el dolor.
- **Los antibióticos no sirven** contra los virus.

Consulta si tienes fiebre de más de 39 °C durante más de tres días, tos de más de tres semanas o dolor en el pecho.`,
  headache: `Gracias por tu pregunta. La mayoría de los dolores de cabeza son tensionales o migrañas:

1. **Bebe suficiente agua** y no te saltes comidas.
2. **Mantén horarios de sueño regulares** y descansa de las pantallas.
3. **Analgésicos no más de dos o tres días por semana**, para evitar el efecto rebote.

Pide ayuda urgente ante un dolor de cabeza repentino y muy intenso, rigidez de cuello con fiebre, o debilidad o dificultad para hablar.`,
  sleep: `Gracias por tu pregunta. Despertarse temprano sin volver a dormir es muy común y suele mejorar:

- **Levántate a la misma hora cada día**, también el fin de semana.
- **Si llevas más de 20 minutos despierto, levántate** y haz algo tranquilo.
- **Nada de cafeína por la tarde** y poco alcohol por la noche.

Si dura más de un mes o te sientes decaído, pide cita.`,
  stomach: `Gracias por tu pregunta. La mayoría de los problemas de estómago pasan en pocos días:

1. **Bebe a menudo en pequeñas cantidades**, y suero oral si tienes diarrea.
2. **Come ligero**, sin alcohol ni grasas.
3. **Para el ardor**, no comas en las tres horas antes de acostarte.

Consulta si hay sangre en las heces o el vómito, dolor fuerte, o si dura más de una semana.`,
  back: `Gracias por tu pregunta. El dolor de espalda suele mejorar en unas semanas:

- **Mantente activo**: caminar ayuda más que guardar cama.
- **El calor y un analgésico sencillo** facilitan el movimiento.
- **Estiramientos suaves**, en cuanto puedas, evitan recaídas.

Pide ayuda urgente si notas adormecimiento en la zona de las nalgas, problemas para orinar o debilidad en las piernas.`,
  anxiety: `Gracias por contarlo. Lo que suele ayudar con el estrés y la ansiedad:

- **Respira despacio**: inspira cuatro segundos y espira seis, durante unos minutos.
- **Actividad, luz del día y horarios regulares** estabilizan el ánimo.
- **Habla con alguien** de confianza.

Si la ansiedad domina tu día a día, pide cita. Si piensas en hacerte daño, llama a emergencias de inmediato.`,
  general: `Gracias por tu pregunta. Por lo que describes, te sugiero:

1. **Descansa y bebe suficiente** los próximos días.
2. **Apunta** cuándo aparecen los síntomas y qué los mejora o empeora.
3. **Un analgésico sencillo** si lo necesitas, según el prospecto.

Consulta si empeora, si aparecen síntomas nuevos o si no mejoras en una semana.`,
};

const nl: Answers = {
  childSkin: `Dank voor uw bericht. Huiduitslag komt bij jonge kinderen heel vaak voor; meestal hoort het bij een licht virus of komt het door een geïrriteerde huid, en het verdwijnt binnen een paar dagen:

- **Doe de glastest**: druk een doorzichtig glas stevig op de uitslag. Verdwijnen de vlekjes niet onder het glas, bel dan direct het alarmnummer.
- **Houd de huid koel en ingevet**: losse katoenen kleding en een parfumvrije crème, voorlopig geen nieuwe zeep of badschuim.
- **Let op hoe uw kind drinkt, speelt en slaapt**, en maak elke dag een foto om te zien of de uitslag zich uitbreidt.

Bel dezelfde dag de huisarts als er koorts bij komt, uw kind ongewoon suf of prikkelbaar is, of de huid blaren vormt, nat wordt of ontstoken lijkt.`,
  skin: `Dank voor uw vraag. Huidveranderingen zoals deze komen vaak voor en zijn meestal onschuldig:

- **Smeer de huid** twee keer per dag in met een parfumvrije crème.
- **Vermijd nieuwe zeep, wasmiddel of cosmetica** tot het rustiger wordt.
- **Maak om de paar dagen een foto** om te zien of het verandert.

Laat het bekijken als de plek warm, gezwollen of pijnlijk wordt, als u koorts krijgt of als een moedervlek verandert.`,
  child: `Dank voor uw bericht. Bij kinderen gaat het vooral om hoe ze **drinken, spelen en slapen**:

1. Geef vaak kleine slokjes en let op natte luiers.
2. Paracetamol of ibuprofen in de dosis voor de leeftijd verlicht klachten; nooit aspirine onder de 16.
3. Laat uw kind rusten en kijk 's nachts bij hem of haar.

Bel het alarmnummer als uw kind ongewoon suf is, vlekjes heeft die niet wegdrukken onder een glas, of moeilijk ademt.`,
  medicine: `Goed dat u het eerst vraagt. Enkele algemene punten:

- **Lees de bijsluiter** voor de dosis en het maximum per 24 uur.
- **Vertel uw apotheker wat u verder gebruikt**, ook supplementen.
- **Neem een vergeten dosis niet dubbel in.**

Bij zwelling van gezicht of lippen, nieuwe uitslag of benauwdheid na een nieuw medicijn: stop ermee en zoek meteen hulp.`,
  allergy: `Dank voor uw vraag. Hooikoorts en allergieën zijn meestal goed te verlichten:

- **Een antihistaminicum dat niet suf maakt** helpt tegen niezen en jeukende ogen.
- **Douche en verschoon uw kleren** na buiten zijn; houd 's ochtends in het seizoen de ramen dicht.
- **Een neusspray met corticosteroïd** helpt na enkele dagen tegen een verstopte neus.

Bij piepende ademhaling, benauwdheid of een opgezwollen gezicht: zoek direct hulp.`,
  vitamin: `Dank voor uw vraag. Gevarieerd eten dekt bijna alles, met één uitzondering:

- **Vitamine D:** van oktober tot maart maken veel mensen te weinig aan; volwassenen wordt vaak **10 microgram (400 IE)** per dag aangeraden.
- **Andere supplementen** zijn zelden nodig zonder een tekort in het bloed.
- **Meer is niet beter:** houd u aan de dosis op de verpakking.

Gebruikt u andere medicijnen of heeft u nierproblemen, vraag dan eerst uw apotheker.`,
  heart: `Dank voor uw vraag. Hart en bloeddruk verdienen aandacht:

1. **Meet een week lang** elke dag op hetzelfde tijdstip uw bloeddruk en noteer die.
2. **Minder zout, alcohol en cafeïne**, en 150 minuten beweging per week.
3. **Bespreek de waarden met uw huisarts.**

Pijn op de borst die uitstraalt naar arm, kaak of rug, of samengaat met benauwdheid, is een noodgeval: bel direct het alarmnummer.`,
  cold: `Dank voor uw vraag. De meeste verkoudheden, hoest en keelpijn komen door virussen en gaan binnen één tot drie weken over:

- **Rust en drink veel**; een warm drankje met honing verzacht hoest.
- **Paracetamol of ibuprofen** helpen tegen koorts en pijn.
- **Antibiotica helpen niet** tegen virussen.

Ga naar de huisarts bij koorts boven 39 °C langer dan drie dagen, hoest langer dan drie weken of pijn op de borst.`,
  headache: `Dank voor uw vraag. De meeste hoofdpijn is spanningshoofdpijn of migraine:

1. **Drink genoeg** en sla geen maaltijden over.
2. **Houd vaste slaaptijden aan** en neem pauzes van schermen.
3. **Pijnstillers niet vaker dan twee of drie dagen per week**, om reboundhoofdpijn te voorkomen.

Zoek direct hulp bij plotselinge, heel hevige hoofdpijn, een stijve nek met koorts, of krachtverlies of moeite met praten.`,
  sleep: `Dank voor uw vraag. Vroeg wakker worden en niet meer inslapen komt veel voor en verbetert vaak:

- **Sta elke dag op dezelfde tijd op**, ook in het weekend.
- **Ligt u langer dan 20 minuten wakker, sta dan op** en doe iets rustigs.
- **Geen cafeïne na de middag** en weinig alcohol 's avonds.

Duurt het langer dan een maand of voelt u zich somber, maak dan een afspraak.`,
  stomach: `Dank voor uw vraag. De meeste maag-darmklachten gaan binnen een paar dagen over:

1. **Drink vaak kleine beetjes**, bij diarree een ORS-oplossing.
2. **Eet licht**, zonder alcohol en vet eten.
3. **Bij brandend maagzuur** niet eten in de drie uur voor het slapengaan.

Laat u onderzoeken bij bloed in ontlasting of braaksel, hevige pijn, of als het langer dan een week duurt.`,
  back: `Dank voor uw vraag. Rugpijn wordt meestal binnen enkele weken minder:

- **Blijf in beweging**: wandelen helpt meer dan bedrust.
- **Warmte en een eenvoudige pijnstiller** maken bewegen makkelijker.
- **Rustige rekoefeningen**, zodra het kan, voorkomen terugval.

Zoek direct hulp bij een doof gevoel rond de billen, problemen met plassen of krachtverlies in de benen.`,
  anxiety: `Dank dat u dit deelt. Wat vaak helpt bij stress en angst:

- **Adem rustig**: vier tellen in, zes tellen uit, een paar minuten lang.
- **Beweging, daglicht en vaste tijden** geven de stemming houvast.
- **Praat met iemand** die u vertrouwt.

Als angst uw dagelijks leven beheerst, maak dan een afspraak. Denkt u eraan uzelf iets aan te doen, bel dan direct het alarmnummer.`,
  general: `Dank voor uw vraag. Op basis van wat u beschrijft, raad ik het volgende aan:

1. **Rust en drink voldoende** de komende dagen.
2. **Noteer** wanneer de klachten optreden en wat ze beter of erger maakt.
3. **Een eenvoudige pijnstiller** als dat nodig is, volgens de bijsluiter.

Ga naar de huisarts als het erger wordt, er nieuwe klachten bijkomen of het na een week niet beter is.`,
};

const ar: Answers = {
  childSkin: `شكرًا على رسالتك. الطفح الجلدي شائع جدًا عند الأطفال الصغار؛ ومعظمه يصاحب عدوى فيروسية خفيفة أو ينتج عن تهيّج الجلد، ويزول خلال أيام قليلة:

- **أجرِ اختبار الكوب**: اضغط جانب كوب زجاجي شفاف بقوة على الطفح. إذا لم تختفِ البقع تحت الكوب، فاتصل بالطوارئ فورًا.
- **حافظ على برودة الجلد وترطيبه**: ملابس قطنية فضفاضة وكريم خالٍ من العطور، ولا صابون جديدًا أو فقاعات استحمام في الوقت الحالي.
- **راقب كيف يشرب طفلك ويلعب وينام**، والتقط صورة كل يوم لترى إن كان الطفح ينتشر.

راجع طبيب الأطفال في اليوم نفسه إذا صاحبت الطفحَ حمى، أو بدا طفلك نعسانًا أو متهيجًا على غير عادته، أو ظهرت على الجلد فقاعات أو إفرازات أو علامات التهاب.`,
  skin: `شكرًا على سؤالك. التغيرات الجلدية مثل هذه شائعة وغالبًا ما تكون غير مؤذية:

- **رطّب الجلد** مرتين يوميًا بكريم خالٍ من العطور.
- **تجنّب الصابون أو المنظفات أو مستحضرات التجميل الجديدة** حتى يهدأ.
- **التقط صورة كل بضعة أيام** لترى إن كان يتغير.

راجع طبيبًا إذا أصبحت المنطقة ساخنة أو متورمة أو مؤلمة، أو ظهرت حمى، أو تغيرت شامة.`,
  child: `شكرًا على رسالتك. أهم ما يُلاحظ عند الأطفال هو كيف **يشربون ويلعبون وينامون**:

1. قدّم له رشفات صغيرة متكررة وراقب الحفاضات المبللة.
2. الباراسيتامول أو الإيبوبروفين بالجرعة المناسبة لعمره يخففان الانزعاج؛ لا تعطِ الأسبرين لمن هم دون 16 عامًا.
3. دعه يرتاح وتفقّده أثناء الليل.

اتصل بالطوارئ إذا كان طفلك نعسانًا على غير عادته، أو ظهر طفح لا يختفي تحت ضغط كوب زجاجي، أو يجد صعوبة في التنفس.`,
  medicine: `أحسنت بالسؤال قبل تناول أي دواء. بعض النقاط العامة:

- **اقرأ النشرة** لمعرفة الجرعة والحد الأقصى خلال 24 ساعة.
- **أخبر الصيدلي بكل ما تتناوله**، بما في ذلك المكملات.
- **لا تضاعف جرعة فائتة.**

إذا لاحظت تورم الوجه أو الشفتين، أو طفحًا جديدًا، أو صعوبة في التنفس بعد دواء جديد، فأوقفه واطلب المساعدة فورًا.`,
  allergy: `شكرًا على سؤالك. يمكن تخفيف حمى القش والحساسية جيدًا في أغلب الأحيان:

- **مضاد هيستامين لا يسبب النعاس** يساعد في العطاس وحكة العينين.
- **استحم وبدّل ملابسك** بعد العودة من الخارج، وأغلق النوافذ صباحًا في موسم اللقاح.
- **بخاخ أنفي بالكورتيزون** يخفف انسداد الأنف خلال أيام.

إذا ظهر صفير في التنفس أو ضيق نفس أو تورم في الوجه، فاطلب المساعدة فورًا.`,
  vitamin: `شكرًا على سؤالك. يغطي الغذاء المتوازن معظم الاحتياجات، مع استثناء واحد:

- **فيتامين د:** من أكتوبر إلى مارس لا يصنع كثيرون ما يكفي منه؛ ويُنصح البالغون غالبًا بـ **10 ميكروغرامات (400 وحدة دولية)** يوميًا.
- **المكملات الأخرى** نادرًا ما تلزم دون نقص يظهره تحليل الدم.
- **الأكثر ليس أفضل:** التزم بالجرعة المكتوبة على العبوة.

إذا كنت تتناول أدوية أخرى أو لديك مشكلات في الكلى، فاسأل الصيدلي أولًا.`,
  heart: `شكرًا على سؤالك. صحة القلب وضغط الدم تستحقان الاهتمام:

1. **قِس ضغطك** يوميًا في الوقت نفسه لمدة أسبوع ودوّن القراءات.
2. **قلّل الملح والكحول والكافيين**، ومارس 150 دقيقة من النشاط أسبوعيًا.
3. **راجع القراءات مع طبيب الأسرة.**

ألم الصدر الذي يمتد إلى الذراع أو الفك أو الظهر، أو يصاحبه ضيق نفس، حالة طارئة: اتصل بالطوارئ فورًا.`,
  cold: `شكرًا على سؤالك. معظم نزلات البرد والسعال والتهاب الحلق سببها فيروسات وتتحسن خلال أسبوع إلى ثلاثة أسابيع:

- **استرح واشرب الكثير من السوائل**؛ المشروب الدافئ مع العسل يهدئ السعال.
- **الباراسيتامول أو الإيبوبروفين** يخففان الحمى والألم.
- **المضادات الحيوية لا تفيد** ضد الفيروسات.

راجع طبيبًا إذا استمرت حرارة فوق 39 درجة أكثر من ثلاثة أيام، أو السعال أكثر من ثلاثة أسابيع، أو ظهر ألم في الصدر.`,
  headache: `شكرًا على سؤالك. معظم أنواع الصداع هي صداع توتري أو شقيقة:

1. **اشرب ما يكفي من الماء** ولا تفوّت الوجبات.
2. **حافظ على مواعيد نوم ثابتة** وخذ فترات راحة من الشاشات.
3. **لا تستخدم المسكنات أكثر من يومين أو ثلاثة أسبوعيًا**، تجنبًا للصداع الارتدادي.

اطلب المساعدة العاجلة عند صداع مفاجئ وشديد جدًا، أو تيبّس الرقبة مع حمى، أو ضعف أو صعوبة في الكلام.`,
  sleep: `شكرًا على سؤالك. الاستيقاظ المبكر دون القدرة على العودة إلى النوم شائع جدًا ويتحسن غالبًا:

- **استيقظ في الوقت نفسه كل يوم**، بما في ذلك عطلة نهاية الأسبوع.
- **إذا بقيت مستيقظًا أكثر من 20 دقيقة فانهض** وافعل شيئًا هادئًا.
- **تجنّب الكافيين بعد الظهر** والكحول في المساء.

إذا استمر ذلك أكثر من شهر أو شعرت بالحزن، فاحجز موعدًا.`,
  stomach: `شكرًا على سؤالك. معظم اضطرابات المعدة تزول خلال أيام قليلة:

1. **اشرب كميات صغيرة بشكل متكرر**، ومحلول الإماهة عند الإسهال.
2. **تناول وجبات خفيفة**، دون كحول أو أطعمة دهنية.
3. **عند الحرقة** لا تأكل في الساعات الثلاث التي تسبق النوم.

راجع طبيبًا إذا ظهر دم في البراز أو القيء، أو ألم شديد، أو استمرت الأعراض أكثر من أسبوع.`,
  back: `شكرًا على سؤالك. يتحسن ألم الظهر عادةً خلال أسابيع قليلة:

- **ابقَ نشيطًا**: المشي يفيد أكثر من ملازمة الفراش.
- **الدفء ومسكن بسيط** يسهّلان الحركة.
- **تمارين تمدد لطيفة** حين تستطيع تمنع عودة الألم.

اطلب المساعدة فورًا عند خدر حول الأرداف، أو مشكلات في التبول، أو ضعف في الساقين.`,
  anxiety: `شكرًا لمشاركتك. مما يساعد غالبًا مع التوتر والقلق:

- **تنفّس ببطء**: شهيق أربع ثوانٍ وزفير ست ثوانٍ لبضع دقائق.
- **النشاط وضوء النهار والمواعيد الثابتة** تساعد على استقرار المزاج.
- **تحدّث مع شخص** تثق به.

إذا صار القلق يسيطر على حياتك اليومية فاحجز موعدًا. وإذا راودتك أفكار بإيذاء نفسك فاتصل بالطوارئ فورًا.`,
  general: `شكرًا على سؤالك. بناءً على ما وصفته، أقترح ما يلي:

1. **استرح واشرب ما يكفي** خلال الأيام القادمة.
2. **دوّن** متى تظهر الأعراض وما الذي يحسّنها أو يزيدها.
3. **مسكن بسيط** عند الحاجة، حسب النشرة.

راجع طبيبًا إذا ساءت الحال، أو ظهرت أعراض جديدة، أو لم تتحسن خلال أسبوع.`,
};

export const OTHER_LANGUAGES: Record<Exclude<AnswerLanguage, 'en'>, Answers> = { de, fr, es, nl, ar };
