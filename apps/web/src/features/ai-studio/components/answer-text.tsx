import { Fragment } from 'react';
import { Link } from 'react-router';

/** The only links an answer may carry: pages of AdPilot's own entities and rules (anything else stays text). */
const INTERNAL = /^\/(campaigns|rules)\/[0-9a-f-]{36}$/;
const LINK = /\[([^\]\n]{1,200})\]\(([^)\s]{1,200})\)/g;

/** One line of an answer: its markdown links to our own pages made links, everything else plain text. */
function Line({ text }: { text: string }) {
  const parts: React.ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const [whole, name, href] = match;
    parts.push(text.slice(last, match.index));
    parts.push(
      INTERNAL.test(href!) ? (
        <Link
          key={match.index}
          to={href!}
          className="font-medium text-blue-700 underline underline-offset-2 hover:text-blue-900 dark:text-blue-300 dark:hover:text-blue-200"
        >
          {name}
        </Link>
      ) : (
        whole
      ),
    );
    last = match.index! + whole!.length;
  }
  parts.push(text.slice(last));
  return <>{parts}</>;
}

/** An answer as text with its line breaks, its citations' links clickable. */
export function AnswerText({ text }: { text: string }) {
  const lines = text.split('\n');
  return (
    <>
      {lines.map((line, index) => (
        <Fragment key={index}>
          <Line text={line} />
          {index < lines.length - 1 && '\n'}
        </Fragment>
      ))}
    </>
  );
}
