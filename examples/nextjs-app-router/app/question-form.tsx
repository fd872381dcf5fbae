'use client';
/**
 * Event props are functions, which a Server Component cannot pass: set them in a client component
 * of yours, like this one (here it counts the questions sent, where your analytics would go).
 */
import { ConsultForm } from 'consult-elements/react';
import { useState } from 'react';

export function QuestionForm() {
  const [sent, setSent] = useState<string[]>([]);
  return (
    <>
      <ConsultForm onConsultSubmitted={(event) => setSent((ids) => [...ids, event.detail.consultationId])} />
      {sent.length > 0 && <p id="questions-sent">Consultations started here: {sent.join(', ')}</p>}
    </>
  );
}
