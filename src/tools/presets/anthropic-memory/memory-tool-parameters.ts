import { z } from 'zod';
import type { MemoryCommand } from './memory-commands.js';

const COMMANDS = ['view', 'create', 'str_replace', 'insert', 'delete', 'rename'] as const;

/** The fields each command needs (the API's schema makes them required per command). */
const REQUIRED: Record<(typeof COMMANDS)[number], readonly string[]> = {
  view: ['path'],
  create: ['path', 'file_text'],
  str_replace: ['path', 'old_str', 'new_str'],
  insert: ['path', 'insert_line', 'insert_text'],
  delete: ['path'],
  rename: ['old_path', 'new_path'],
};

/**
 * The memory tool's input for models that get it as a plain function tool (OpenAI, Ollama, MCP): one flat object
 * with a `command` enum, because several providers reject a top-level `oneOf`. Validated per command, then narrowed
 * to a {@link MemoryCommand}. Claude gets the native tool instead (`anthropicMemoryToolDefinition`).
 */
export const memoryToolParameters = z
  .object({
    command: z.enum(COMMANDS).describe('What to do.'),
    path: z
      .string()
      .optional()
      .describe('Path under /memories, e.g. /memories/notes.md (view, create, str_replace, insert, delete).'),
    view_range: z
      .array(z.number().int())
      .nullable()
      .optional()
      .describe(
        'view of a file: [first, last] line, 1-based and inclusive; last -1 = to the end of the file.',
      ),
    file_text: z.string().optional().describe('create: the content of the new file.'),
    old_str: z
      .string()
      .optional()
      .describe('str_replace: the text to replace; it must occur once, within one line.'),
    new_str: z.string().optional().describe('str_replace: the replacement text.'),
    insert_line: z
      .number()
      .int()
      .optional()
      .describe('insert: the line after which to insert (0 = at the top).'),
    insert_text: z.string().optional().describe('insert: the text to insert.'),
    old_path: z.string().optional().describe('rename: the file or directory to move.'),
    new_path: z.string().optional().describe('rename: where to move it (must not exist yet).'),
  })
  .superRefine((input, context) => {
    for (const field of REQUIRED[input.command]) {
      if ((input as Record<string, unknown>)[field] === undefined) {
        context.addIssue({
          code: 'custom',
          path: [field],
          message: `required by the ${input.command} command`,
        });
      }
    }
  })
  .transform((input): MemoryCommand => {
    const path = input.path as string;
    switch (input.command) {
      case 'view':
        return {
          command: 'view',
          path,
          ...(input.view_range == null ? {} : { view_range: input.view_range }),
        };
      case 'create':
        return { command: 'create', path, file_text: input.file_text as string };
      case 'str_replace':
        return {
          command: 'str_replace',
          path,
          old_str: input.old_str as string,
          new_str: input.new_str as string,
        };
      case 'insert':
        return {
          command: 'insert',
          path,
          insert_line: input.insert_line as number,
          insert_text: input.insert_text as string,
        };
      case 'delete':
        return { command: 'delete', path };
      case 'rename':
        return { command: 'rename', old_path: input.old_path as string, new_path: input.new_path as string };
    }
  });
