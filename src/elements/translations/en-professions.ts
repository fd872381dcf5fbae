/**
 * Professionals' roles and specialties as the service sends them (the sandbox's): each English
 * value is its own key, and the other languages translate it. The loader does not carry this
 * table: a value English does not list, or any value in English, shows as sent.
 */
export const professions = {
  'General Practitioner': 'General Practitioner',
  'Specialist in Internal Medicine': 'Specialist in Internal Medicine',
  Dermatologist: 'Dermatologist',
  Paediatrician: 'Paediatrician',
  'Clinical Pharmacist': 'Clinical Pharmacist',
  'Nurse Practitioner': 'Nurse Practitioner',
  'Clinical Psychologist': 'Clinical Psychologist',
  'General practice': 'General practice',
  'Family medicine': 'Family medicine',
  'Internal medicine': 'Internal medicine',
  Cardiology: 'Cardiology',
  Dermatology: 'Dermatology',
  Paediatrics: 'Paediatrics',
  'Adolescent health': 'Adolescent health',
  'Medication review': 'Medication review',
  'Travel health': 'Travel health',
  'Musculoskeletal care': 'Musculoskeletal care',
  'Minor injuries': 'Minor injuries',
  'Anxiety and stress': 'Anxiety and stress',
  Sleep: 'Sleep',
} as const;
