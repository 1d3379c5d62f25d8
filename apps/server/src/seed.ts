import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { generatePassword } from './lib/crypto.js';
import { isUniqueViolation } from './lib/errors.js';
import { hashPassword } from './lib/passwords.js';
import { findUserByEmail, insertUser } from './modules/users/users.repository.js';

/**
 * Creates the first superuser from FIRST_SUPERUSER / FIRST_SUPERUSER_PASSWORD if it does not exist.
 * In `local` without a password, one is generated and printed once (it is never stored in clear).
 */
export async function seedFirstSuperuser(db: Database, config: Config, log: FastifyBaseLogger): Promise<void> {
  if (await findUserByEmail(db, config.firstSuperuser)) return;
  const generated = config.firstSuperuserPassword === undefined ? generatePassword() : undefined;
  const password = config.firstSuperuserPassword ?? generated!;
  try {
    await insertUser(db, {
      email: config.firstSuperuser,
      hashedPassword: await hashPassword(password),
      fullName: 'Administrator',
      isSuperuser: true,
      emailVerifiedAt: new Date(),
    });
  } catch (error) {
    // Several instances starting at once on a new database: another one created it meanwhile.
    if (isUniqueViolation(error)) return;
    throw error;
  }
  log.info({ email: config.firstSuperuser }, 'first superuser created');
  if (generated) {
    // Deliberately on stdout, not in the structured log: shown once, at creation, in local only.
    process.stdout.write(
      `\n  First superuser: ${config.firstSuperuser}\n  Generated password: ${generated}\n  (set FIRST_SUPERUSER_PASSWORD to choose it; this is shown only once)\n\n`,
    );
  }
}
