#!/usr/bin/env node
// The upstream the MCP conformance suite's server scenarios are run against, directly and through `scratchpad
// proxy` (scripts/conformance.mjs): the tools, resources, prompts and completions each scenario's "Server
// Implementation Requirements" name (`@modelcontextprotocol/conformance` 0.1.16), written with the official SDK.
//
//   node test/conformance/fixture-server.mjs --http PORT    Streamable HTTP at http://127.0.0.1:PORT/mcp, sessions
//   node test/conformance/fixture-server.mjs --stdio        over stdio
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

// A 1×1 red PNG and a 1-sample WAV: the smallest real files of their types.
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';
const WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQIAAAAAAA==';
const JSON_SCHEMA_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

const pause = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds));
const text = (value) => ({ content: [{ type: 'text', text: value }] });

/** One server with everything the scenarios call. */
function fixtureServer() {
  const server = new McpServer(
    { name: 'scratchpad-conformance-fixture', version: '1.0.0' },
    { capabilities: { logging: {}, completions: {}, resources: { subscribe: true } } },
  );
  const subscriptions = new Set();

  server.registerTool('test_simple_text', { description: 'Returns simple text' }, async () =>
    text('This is a simple text response for testing.'),
  );
  server.registerTool('test_image_content', { description: 'Returns an image' }, async () => ({
    content: [{ type: 'image', data: PNG, mimeType: 'image/png' }],
  }));
  server.registerTool('test_audio_content', { description: 'Returns audio' }, async () => ({
    content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }],
  }));
  server.registerTool(
    'test_embedded_resource',
    { description: 'Returns an embedded resource' },
    async () => ({
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    }),
  );
  server.registerTool(
    'test_multiple_content_types',
    { description: 'Returns text, an image and a resource' },
    async () => ({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    }),
  );
  server.registerTool('test_tool_with_logging', { description: 'Logs three messages' }, async (extra) => {
    const log = (data) => server.server.sendLoggingMessage({ level: 'info', data }, extra.sessionId);
    await log('Tool execution started');
    await pause(50);
    await log('Tool processing data');
    await pause(50);
    await log('Tool execution completed');
    return text('Logging test completed');
  });
  server.registerTool('test_error_handling', { description: 'Always fails' }, async () => {
    throw new Error('This tool intentionally returns an error for testing');
  });
  server.registerTool('test_tool_with_progress', { description: 'Reports progress' }, async (extra) => {
    const token = extra._meta?.progressToken;
    for (const progress of [0, 50, 100]) {
      if (token !== undefined) {
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress, total: 100 },
        });
      }
      if (progress < 100) await pause(50);
    }
    return text('Progress test completed');
  });
  server.registerTool(
    'test_sampling',
    { description: 'Asks the client to sample', inputSchema: { prompt: z.string() } },
    async ({ prompt }, extra) => {
      const reply = await extra.sendRequest(
        {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 },
        },
        z
          .object({ content: z.object({ type: z.string(), text: z.string().optional() }).passthrough() })
          .passthrough(),
      );
      return text(`LLM response: ${reply.content.text ?? JSON.stringify(reply.content)}`);
    },
  );
  const elicit = (extra, params) =>
    extra.sendRequest(
      { method: 'elicitation/create', params },
      z.object({ action: z.string(), content: z.record(z.unknown()).optional() }).passthrough(),
    );
  server.registerTool(
    'test_elicitation',
    { description: 'Asks the user', inputSchema: { message: z.string() } },
    async ({ message }, extra) => {
      const reply = await elicit(extra, {
        message,
        requestedSchema: {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          required: ['username', 'email'],
        },
      });
      return text(`User response: action=${reply.action}, content=${JSON.stringify(reply.content ?? {})}`);
    },
  );
  server.registerTool(
    'test_elicitation_sep1034_defaults',
    { description: 'Elicits with defaults' },
    async (extra) => {
      const reply = await elicit(extra, {
        message: 'Please review the defaults',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', default: 'John Doe' },
            age: { type: 'integer', default: 30 },
            score: { type: 'number', default: 95.5 },
            status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
            verified: { type: 'boolean', default: true },
          },
        },
      });
      return text(
        `Elicitation completed: action=${reply.action}, content=${JSON.stringify(reply.content ?? {})}`,
      );
    },
  );
  server.registerTool(
    'test_elicitation_sep1330_enums',
    { description: 'Elicits with every enum form' },
    async (extra) => {
      const reply = await elicit(extra, {
        message: 'Please choose',
        requestedSchema: {
          type: 'object',
          properties: {
            untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            titledSingle: {
              type: 'string',
              oneOf: [
                { const: 'value1', title: 'First Option' },
                { const: 'value2', title: 'Second Option' },
                { const: 'value3', title: 'Third Option' },
              ],
            },
            legacyEnum: {
              type: 'string',
              enum: ['opt1', 'opt2', 'opt3'],
              enumNames: ['Option One', 'Option Two', 'Option Three'],
            },
            untitledMulti: {
              type: 'array',
              items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            },
            titledMulti: {
              type: 'array',
              items: {
                anyOf: [
                  { const: 'value1', title: 'First Choice' },
                  { const: 'value2', title: 'Second Choice' },
                  { const: 'value3', title: 'Third Choice' },
                ],
              },
            },
          },
        },
      });
      return text(
        `Elicitation completed: action=${reply.action}, content=${JSON.stringify(reply.content ?? {})}`,
      );
    },
  );
  // Registered with a raw JSON Schema below (the SDK's registerTool takes zod shapes).
  server.registerTool(
    'test_reconnection',
    { description: 'Closes its SSE stream mid-call' },
    async (extra) => {
      await pause(100);
      extra.closeSSEStream?.();
      await pause(200);
      return text('Reconnection test completed successfully');
    },
  );

  server.registerResource(
    'static-text',
    'test://static-text',
    { description: 'A static text resource', mimeType: 'text/plain' },
    async (uri) => ({
      contents: [
        { uri: uri.href, mimeType: 'text/plain', text: 'This is the content of the static text resource.' },
      ],
    }),
  );
  server.registerResource(
    'static-binary',
    'test://static-binary',
    { description: 'A static binary resource', mimeType: 'image/png' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'image/png', blob: PNG }] }),
  );
  server.registerResource(
    'watched-resource',
    'test://watched-resource',
    { description: 'A resource to subscribe to', mimeType: 'text/plain' },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Watched resource content.' }],
    }),
  );
  server.registerResource(
    'template-data',
    new ResourceTemplate('test://template/{id}/data', { list: undefined }),
    { description: 'Data for an id', mimeType: 'application/json' },
    async (uri, { id }) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'application/json',
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
        },
      ],
    }),
  );

  server.registerPrompt('test_simple_prompt', { description: 'A simple prompt' }, async () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  }));
  server.registerPrompt(
    'test_prompt_with_arguments',
    { description: 'A prompt with arguments', argsSchema: { arg1: z.string(), arg2: z.string() } },
    async ({ arg1, arg2 }) => ({
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` },
        },
      ],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_embedded_resource',
    { description: 'A prompt with an embedded resource', argsSchema: { resourceUri: z.string() } },
    async ({ resourceUri }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: {
              uri: resourceUri,
              mimeType: 'text/plain',
              text: 'Embedded resource content for testing.',
            },
          },
        },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    }),
  );
  server.registerPrompt('test_prompt_with_image', { description: 'A prompt with an image' }, async () => ({
    messages: [
      { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  }));

  const raw = server.server;
  // json-schema-2020-12: a tool whose input schema uses 2020-12 keywords, listed as written.
  const listTools = raw._requestHandlers.get('tools/list');
  raw._requestHandlers.set('tools/list', async (request, extra) => {
    const listed = await listTools(request, extra);
    return {
      ...listed,
      tools: [
        ...listed.tools,
        {
          name: 'json_schema_2020_12_tool',
          description: 'Tool with JSON Schema 2020-12 features',
          inputSchema: {
            $schema: JSON_SCHEMA_2020_12,
            type: 'object',
            $defs: {
              address: {
                type: 'object',
                properties: { street: { type: 'string' }, city: { type: 'string' } },
              },
            },
            properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
            additionalProperties: false,
          },
        },
      ],
    };
  });
  const callTool = raw._requestHandlers.get('tools/call');
  raw._requestHandlers.set('tools/call', async (request, extra) =>
    request.params.name === 'json_schema_2020_12_tool'
      ? text(`Received ${JSON.stringify(request.params.arguments ?? {})}`)
      : callTool(request, extra),
  );
  raw._requestHandlers.set('resources/subscribe', async (request) => {
    subscriptions.add(request.params.uri);
    return {};
  });
  raw._requestHandlers.set('resources/unsubscribe', async (request) => {
    subscriptions.delete(request.params.uri);
    return {};
  });
  raw._requestHandlers.set('completion/complete', async (request) => {
    const prefix = String(request.params.argument?.value ?? '');
    const values = ['paris', 'park', 'party'].filter((value) => value.startsWith(prefix));
    return { completion: { values, total: values.length, hasMore: false } };
  });
  return server;
}

/** Events kept per stream, so a client that reconnects with `Last-Event-ID` gets what it missed. */
class MemoryEventStore {
  #events = new Map();

  async storeEvent(streamId, message) {
    const eventId = `${streamId}_${randomUUID()}`;
    this.#events.set(eventId, { streamId, message });
    return eventId;
  }

  async getStreamIdForEventId(eventId) {
    return this.#events.get(eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId, { send }) {
    const streamId = this.#events.get(lastEventId)?.streamId;
    if (streamId === undefined) return '';
    let after = false;
    for (const [eventId, event] of this.#events) {
      if (after && event.streamId === streamId) await send(eventId, event.message);
      if (eventId === lastEventId) after = true;
    }
    return streamId;
  }
}

async function serveHttp(port) {
  const sessions = new Map();
  const http = createServer(async (request, response) => {
    try {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      if (url.pathname !== '/mcp') {
        response.writeHead(404).end('not found');
        return;
      }
      const host = (request.headers.host ?? '').replace(/:\d+$/, '');
      if (!['127.0.0.1', 'localhost', '[::1]'].includes(host)) {
        response.writeHead(403).end('host not allowed');
        return;
      }
      const id = request.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? sessions.get(id) : undefined;
      if (!transport) {
        if (typeof id === 'string') {
          response.writeHead(404, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              jsonrpc: '2.0',
              error: { code: -32001, message: 'Session not found' },
              id: null,
            }),
          );
          return;
        }
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          eventStore: new MemoryEventStore(),
          retryInterval: 500,
          onsessioninitialized: (sessionId) => sessions.set(sessionId, created),
        });
        created.onclose = () => created.sessionId && sessions.delete(created.sessionId);
        transport = created;
        await fixtureServer().connect(created);
      }
      await transport.handleRequest(request, response);
    } catch (error) {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    }
  });
  await new Promise((resolve) => http.listen(port, '127.0.0.1', resolve));
  process.stderr.write(`conformance fixture at http://127.0.0.1:${http.address().port}/mcp\n`);
}

const [mode, value] = process.argv.slice(2);
if (mode === '--http') await serveHttp(Number(value ?? 0));
else if (mode === '--stdio') await fixtureServer().connect(new StdioServerTransport());
else {
  process.stderr.write('usage: fixture-server.mjs --http PORT | --stdio\n');
  process.exit(2);
}
