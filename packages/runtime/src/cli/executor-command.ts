import { resolve } from 'node:path';
import type { Command } from 'llm-scratchpad/cli';
import type { CliContext } from 'llm-scratchpad/cli';

/** `scratchpad executor keygen | sign DIR | verify DIR`: the signing workflow of seed 002's executors. */
export function registerExecutorCommand(program: Command, context: CliContext): void {
  const executor = program
    .command('executor')
    .description('sign and verify executors (folders with manifest.json and code)');

  executor
    .command('keygen')
    .description(
      'create the local ed25519 signing key (kept in $XDG_CONFIG_HOME/scratchpad/keys; its public key is trusted)',
    )
    .action(async () => {
      const { assertOutsideSandbox } = await import('../sandbox/assert-outside-sandbox.js');
      assertOutsideSandbox('create a signing key');
      const [{ loadOrCreateSigningKey }, { defaultKeyDir }] = await Promise.all([
        import('../executors/key-store.js'),
        import('../executors/xdg-dirs.js'),
      ]);
      const keyDir = defaultKeyDir(context.env);
      const { key, created } = await loadOrCreateSigningKey(keyDir);
      context.print(`${created ? 'created' : 'already have'} signing key ${key.keyId} in ${keyDir}`, {
        keyId: key.keyId,
        keyDir,
        created,
      });
    });

  executor
    .command('sign')
    .description(
      'sign the executor in DIR with the local key (read its code first: a signature is what lets it run)',
    )
    .argument('<dir>', 'executor folder')
    .action(async (dir: string) => {
      const { assertOutsideSandbox } = await import('../sandbox/assert-outside-sandbox.js');
      assertOutsideSandbox('sign an executor');
      const [{ loadOrCreateSigningKey }, { defaultKeyDir }, { signExecutor }] = await Promise.all([
        import('../executors/key-store.js'),
        import('../executors/xdg-dirs.js'),
        import('../executors/sign-executor.js'),
      ]);
      const { key } = await loadOrCreateSigningKey(defaultKeyDir(context.env));
      const result = await signExecutor(resolve(dir), key);
      context.print(`signed ${result.manifest.name} (${result.codeDigest}) with key ${result.keyId}`, {
        name: result.manifest.name,
        codeDigest: result.codeDigest,
        keyId: result.keyId,
      });
    });

  executor
    .command('verify')
    .description('check the signature and code digest of the executor in DIR against the trusted keys')
    .argument('<dir>', 'executor folder')
    .action(async (dir: string) => {
      const [{ loadTrustedKeys }, { defaultKeyDir }, { verifyExecutor }] = await Promise.all([
        import('../executors/key-store.js'),
        import('../executors/xdg-dirs.js'),
        import('../executors/verify-executor.js'),
      ]);
      const result = await verifyExecutor(resolve(dir), await loadTrustedKeys(defaultKeyDir(context.env)));
      if (result.ok) {
        context.print(
          `ok: ${result.executor.name} is signed by trusted key ${result.executor.keyId} and its code matches (${result.executor.codeDigest})`,
          {
            ok: true,
            name: result.executor.name,
            keyId: result.executor.keyId,
            codeDigest: result.executor.codeDigest,
          },
        );
        return;
      }
      context.print(`not verified: ${result.reason}`, {
        ok: false,
        reason: result.reason,
        name: result.name ?? null,
      });
      context.fail();
    });
}
