import { createReadStream } from 'node:fs';
import type { Command } from 'commander';
import { ScratchpadError } from '../../core/errors.js';
import { formatBytes, formatCount } from '../../core/format.js';
import type { JsonObject } from '../../core/json.js';
import { bufferInput } from '../buffered-input.js';
import type { CliContext } from '../cli-context.js';
import { Option } from '../commander.js';
import { nonNegativeInteger, ttlSeconds } from '../parse-number.js';

/**
 * `scratchpad write NAME [FILE] [--ttl SECONDS] [--append]`: content from FILE or stdin. Input up to 64 MiB is
 * held in memory so that a write losing a race to a concurrent writer is retried, as the library does.
 */
export function registerWriteCommand(program: Command, context: CliContext): void {
  program
    .command('write')
    .description('store stdin under NAME (streamed; any size)')
    .argument('<name>', 'entry name: 1-128 of [A-Za-z0-9._-], not starting with "."')
    .argument('[file]', 'read the content from this file instead of stdin')
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
        file: string | undefined,
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
        if (file === undefined && (context.stdin as { isTTY?: boolean }).isTTY) {
          context.stderr.write(
            `scratchpad: reading "${name}" from stdin; end it with Ctrl-D (or give a FILE).\n`,
          );
        }
        const source = file === undefined ? context.stdin : openInput(file);
        const content = await bufferInput(source as AsyncIterable<Uint8Array>);
        const scratchpad = await context.scratchpad();
        const result = await scratchpad.write(context.options.session, name, content, {
          mode: flags.append ? 'append' : flags.create ? 'create' : 'replace',
          ...(flags.ttl === undefined ? {} : { ttlMs: flags.ttl * 1000 }),
          ...(flags.ifVersion === undefined ? {} : { ifVersion: flags.ifVersion }),
          ...(flags.pin ? { pinned: true } : {}),
          ...(flags.kind ? { kind: flags.kind } : {}),
          ...(flags.metadata === undefined ? {} : { metadata: parseMetadata(flags.metadata) }),
        });
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

/** The file's bytes as a stream; a missing or unreadable file is an `INVALID_ARGUMENT` naming it. */
async function* openInput(file: string): AsyncGenerator<Uint8Array> {
  try {
    for await (const piece of createReadStream(file)) yield piece as Uint8Array;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ScratchpadError(
      'INVALID_ARGUMENT',
      `Cannot read ${file}: ${code ?? (error as Error).message}.`,
      {
        hint: 'Give a readable file, or pipe the content on stdin.',
        details: { file, code },
      },
    );
  }
}
