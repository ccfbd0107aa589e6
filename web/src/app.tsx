import { useEffect, useState } from 'preact/hooks';
import { watchChanges } from './api.js';
import { leaveBoxOnEscape } from './keyboard.js';
import { href, useRoute } from './router.js';
import { ContextView } from './views/context-view.js';
import { EntryView } from './views/entry-view.js';
import { SessionsView } from './views/sessions-view.js';
import { TurnView } from './views/turn-view.js';
import { TurnsView } from './views/turns-view.js';

/** The inspector: a top bar with the three views, live updates from `/api/changes`. */
export function App() {
  const route = useRoute();
  const [revision, setRevision] = useState(0);
  const [updated, setUpdated] = useState<Date>();
  useEffect(leaveBoxOnEscape, []);
  useEffect(
    () =>
      watchChanges(() => {
        setRevision((value) => value + 1);
        setUpdated(new Date());
      }),
    [],
  );
  const section = route.view === 'entry' ? 'entries' : route.view === 'turn' ? 'turns' : route.view;
  return (
    <>
      <header class="top">
        <h1>
          <a href="#/">Scratchpad</a>
        </h1>
        <nav aria-label="Views">
          <a href={href({ view: 'entries' })} aria-current={section === 'entries' ? 'page' : undefined}>
            Entries
          </a>
          <a href={href({ view: 'turns' })} aria-current={section === 'turns' ? 'page' : undefined}>
            Turns
          </a>
          <a href={href({ view: 'context' })} aria-current={section === 'context' ? 'page' : undefined}>
            Context
          </a>
        </nav>
        <span class="live" aria-live="polite" title="New entries and turns appear without a reload">
          ● live{updated ? ` · updated ${updated.toLocaleTimeString()}` : ''}
        </span>
      </header>
      <main>
        {route.view === 'entries' ? (
          <SessionsView session={route.session} revision={revision} />
        ) : route.view === 'entry' ? (
          <EntryView session={route.session} id={route.id} line={route.line} revision={revision} />
        ) : route.view === 'turns' ? (
          <TurnsView session={route.session} revision={revision} />
        ) : route.view === 'turn' ? (
          <TurnView id={route.id} />
        ) : (
          <ContextView session={route.session} revision={revision} />
        )}
      </main>
    </>
  );
}
