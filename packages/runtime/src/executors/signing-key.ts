import { createHash, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';

/** An ed25519 key pair that signs executors, as PEM text (PKCS#8 private, SPKI public). */
export interface SigningKey {
  /** First 16 hex digits of the SHA-256 of the public key's SPKI DER encoding. */
  keyId: string;
  privateKeyPem: string;
  publicKeyPem: string;
}

/** A public key whose signatures the loader accepts. */
export interface TrustedKey {
  keyId: string;
  publicKeyPem: string;
}

/** Generates a fresh ed25519 signing key (node:crypto). */
export function generateSigningKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    keyId: keyIdOf(publicKey),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** The key id of a public key (KeyObject or SPKI PEM). */
export function keyIdOf(publicKey: KeyObject | string): string {
  const key = typeof publicKey === 'string' ? createPublicKey(publicKey) : publicKey;
  const der = key.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('hex').slice(0, 16);
}

/** The public half of a signing key, to add to a trusted set. */
export function toTrustedKey(key: SigningKey | TrustedKey): TrustedKey {
  return { keyId: key.keyId, publicKeyPem: key.publicKeyPem };
}

/**
 * Reads a public key from SPKI PEM and checks it is ed25519; the key id is derived, never taken on trust.
 * Throws a plain `TypeError` for anything else (callers that read files turn it into a reason).
 */
export function trustedKeyFromPem(publicKeyPem: string): TrustedKey {
  const key = createPublicKey(publicKeyPem);
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new TypeError(`expected an ed25519 public key, got ${key.asymmetricKeyType ?? 'unknown'}`);
  }
  return { keyId: keyIdOf(key), publicKeyPem: key.export({ type: 'spki', format: 'pem' }).toString() };
}
