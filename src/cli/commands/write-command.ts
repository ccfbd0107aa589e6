import { type Command, Option } from 'commander';
import { ScratchpadError } from '../../core/errors.js';
import { formatBytes, formatCount } from '../../core/format.js';
import type { JsonObject } from '../../core/json.js';
import type { CliContext } from '../cli-context.js';
import { nonNegativeInteger, ttlSeconds } from '../parse-number.js';

/** `scratchpad write NAME [--ttl SECONDS] [--append]`: content from stdin, streamed. */
export function registerWriteCommand(program: Command, context: CliContext): void {
  program
    .command('write')
    .description('store stdin under NAME (streamed; any size)')
    .argument('<name>', 'entry name: 1-128 of [A-Za-z0-9._-], not starting with "."')
    .option('--ttl <seconds>', 'delete after this many seconds', ttlSeconds)
    .option('--append', 'append to the entry instead of replacing it')
    .option('--create', 'fail if the entry exists')
    .option(
      '--if-version <n>',
      'only write if the entry is at this version (0 = must not exist)',
      nonNegativeInteger,
    )
    .option('--pin', 'never remove the entry in cleanup')
    .addOption(
      new Option('--kind <kind>', 'text or binary (default: detect)').choices(['text', 'binary', 'auto']),
    )
    .option('--metadata <json>', 'a JSON object stored with the entry')
    .action(
      async (
        name: string,
        flags: {
          ttl?: number;
          append?: boolean;
          create?: boolean;
          ifVersion?: number;
          pin?: boolean;
          kind?: 'text' | 'binary' | 'auto';
          metadata?: string;
        },
      ) => {
        if (flags.append && flags.create)
          throw new ScratchpadError('INVALID_ARGUMENT', 'Give --append or --create, not both.');
        const scratchpad = await context.scratchpad();
        const result = await scratchpad.write(
          context.options.session,
          name,
          context.stdin as AsyncIterable<Uint8Array>,
          {
            mode: flags.append ? 'append' : flags.create ? 'create' : 'replace',
            ...(flags.ttl === undefined ? {} : { ttlMs: flags.ttl * 1000 }),
            ...(flags.ifVersion === undefined ? {} : { ifVersion: flags.ifVersion }),
            ...(flags.pin ? { pinned: true } : {}),
            ...(flags.kind ? { kind: flags.kind } : {}),
            ...(flags.metadata === undefined ? {} : { metadata: parseMetadata(flags.metadata) }),
          },
        );
        const entry = result.entry;
        const size =
          entry.kind === 'text'
            ? `${formatCount(entry.chars)} chars, ${formatCount(entry.lines)} lines`
            : `${formatBytes(entry.bytes)} binary`;
        const verb = result.created ? 'created' : flags.append ? 'appended to' : 'replaced';
        context.print(`${verb} ${entry.name}: ${size} (version ${entry.version}, id ${entry.id})`, entry);
      },
    );
}

function parseMetadata(text: string): JsonObject {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as JsonObject;
  } catch {
    // fall through to the error below
  }
  throw new ScratchpadError('INVALID_ARGUMENT', '--metadata must be a JSON object.', {
    hint: `Example: --metadata '{"path":"/tmp/x"}'`,
  });
}
