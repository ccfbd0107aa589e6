import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
const c = new Client({name:'t',version:'1'});
await c.connect(new StdioClientTransport({command: process.execPath, args:['--cpu-prof','--cpu-prof-dir=/tmp/prof','dist/cli/main.js','--db','/tmp/prof/p.db','proxy','--', process.execPath, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js','/tmp/prof'], stderr:'inherit'}));
let t = performance.now();
const r = await c.callTool({name:'read_text_file', arguments:{path:'/tmp/prof/f.txt'}}, undefined, {timeout: 300000});
console.log('took', ((performance.now()-t)/1000).toFixed(1), 's', JSON.stringify(r).length);
await c.close();
