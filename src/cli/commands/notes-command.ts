import type { Command } from 'commander';
import { ScratchpadError } from '../../core/errors.js';
import type { CliContext } from '../cli-context.js';
import { nonNegativeInteger } from '../parse-number.js';
import { usage } from './read-command.js';

/** `scratchpad notes [show | set | append]`: the session notes of seed 001 (content of set/append from stdin). */
export function registerNotesCommand(program: Command, context: CliContext): void {
  program
    .command('notes')
    .description('session notes that survive compaction: show (default), set or append (content from stdin)')
    .argument('[action]', 'show | set | append', 'show')
    .option('--max-tokens <n>', 'token budget (default 2000)', nonNegativeInteger)
    .action(async (action: string, flags: { maxTokens?: number }) => {
      if (!['show', 'set', 'append'].includes(action))
        throw usage(`unknown notes action ${JSON.stringify(action)}: use show, set or append`);
      const { createSessionNotes } = await import('../../context/notes/session-notes.js');
      const scratchpad = await context.scratchpad();
      const notes = createSessionNotes({
        session: scratchpad.session(context.options.session),
        ...(flags.maxTokens === undefined ? {} : { maxTokens: flags.maxTokens }),
      });
      if (action === 'show') {
        const content = await notes.get();
        if (context.options.json) context.print('', { session: context.options.session, content });
        else context.stdout.write(content.length > 0 && !content.endsWith('\n') ? `${content}\n` : content);
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of context.stdin) chunks.push(Buffer.from(chunk as Uint8Array));
      // Shells end piped text with a newline the user did not mean as content.
      const content = Buffer.concat(chunks)
        .toString('utf8')
        .replace(/\r?\n$/, '');
      await notes.get();
      const result = await notes.set(content, action === 'set' ? 'replace' : 'append');
      if (result.outcome === 'rejected') {
        throw new ScratchpadError('BUDGET_EXCEEDED', result.message);
      }
      context.print(result.message, result);
    });
}
