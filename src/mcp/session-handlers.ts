import type { RequestHandlers } from './request-handlers.js';
import type { ServedSession } from './served-session.js';

/** The handlers the scratchpad server registers, also what the proxy merges the upstream's items into. */
export type SessionHandlers = Required<
  Pick<
    RequestHandlers,
    | 'tools/list'
    | 'tools/call'
    | 'resources/list'
    | 'resources/templates/list'
    | 'resources/read'
    | 'completion/complete'
  >
>;

/**
 * What a server of one session answers, in either SDK era: the preset's tools, the session's entries as
 * resources, and completion of entry names (an empty completion for any other reference).
 */
export function sessionHandlers({
  tools,
  resources,
}: Pick<ServedSession, 'tools' | 'resources'>): SessionHandlers {
  return {
    'tools/list': async () => ({ tools: await tools.list() }),
    'tools/call': (params, context) => tools.call(params.name, params.arguments ?? {}, context.signal),
    'resources/list': (params) => resources.list(params?.cursor),
    'resources/templates/list': async () => resources.templates(),
    'resources/read': (params) => resources.read(params.uri),
    'completion/complete': async (params) =>
      (await resources.complete(params.ref, params.argument)) ?? { completion: { values: [] } },
  };
}
