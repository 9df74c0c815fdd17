import type * as auth from './auth.js';
import type { CallDef } from './call.js';

/**
 * The few calls the web client's first page makes (the session check, sign-in, sign-out, registration and
 * the SMS code), by path only: importing them builds no zod schema, so the sign-in page does not fetch
 * zod (≈ 30 KB compressed) nor the contract's schemas. The server and every other page use the full
 * definitions in auth.ts (whose types these carry); packages/shared/test/wire.test.ts checks the paths
 * match. Asking one of these for its schemas is a programming error and says so.
 */
export type { SessionInfo } from './auth.js';
export type { CallBody, CallData, CallDef } from './call.js';
export { CODE, type Code, MSG } from './envelope.js';

/** Seconds before a new SMS code may be asked for (auth.ts SMS_RESEND_SECONDS; the test checks they agree). */
export const SMS_RESEND_SECONDS = 60;

function pathOnly<C extends CallDef>(path: string): C {
  const missing = (): never => {
    throw new Error(`${path}: this is the call's path only (@dzy/shared/wire); import its schemas from @dzy/shared`);
  };
  return Object.freeze({
    path,
    get summary() {
      return missing();
    },
    get access() {
      return missing();
    },
    get body() {
      return missing();
    },
    get data() {
      return missing();
    },
  }) as unknown as C;
}

export const sessionCall = pathOnly<typeof auth.sessionCall>('userext/v1.0/common/user/session');
export const loginCall = pathOnly<typeof auth.loginCall>('userext/v1.0/common/user/login');
export const logoutCall = pathOnly<typeof auth.logoutCall>('userext/v1.0/common/user/logout');
export const saveUserCall = pathOnly<typeof auth.saveUserCall>('user/v1.0/userinfo/saveUser');
export const sendSmsCall = pathOnly<typeof auth.sendSmsCall>('user/verify/sendSmsVerificationCodeMsg');
