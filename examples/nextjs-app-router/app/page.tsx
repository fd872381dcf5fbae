/**
 * Your portal's page, a Server Component. The components of `consult-elements/react` are client
 * components: the server renders their tags, and the elements come alive in the browser, where
 * <consult-session> signs the member in through the proxy at /consult (app/consult/[...path]).
 */
import { CaseHistory, ConsultSession } from 'consult-elements/react';
import { QuestionForm } from './question-form';

export default function Page() {
  return (
    <main>
      <h1>Ask a doctor</h1>
      <ConsultSession endpoint="/consult">
        <QuestionForm />
        <CaseHistory />
      </ConsultSession>
    </main>
  );
}
