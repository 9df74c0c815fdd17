import {
  BATCH_INVITE_MAX,
  CODE,
  IMPORT_MSG,
  INVITE_FILE_COLUMNS,
  INVITE_FILE_MSG,
  INVITE_FILES,
  MSG,
  parseInviteLines,
  saveAgencyInviteListCall,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download, readSheet, upload, xlsx } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';
import { ADMIN, ZHANG } from './staff-helpers.js';

/** Issue 19 point 3: batch invitations from an .xlsx, read into the same list the pasted text gives. */
let t: TestApp;
let admin: string;
let zhang: string;

beforeAll(async () => {
  t = await startTestApp();
  [admin, zhang] = await Promise.all([t.login(ADMIN), t.login(ZHANG)]);
}, 900_000);
afterAll(() => t.close());

type Read = { list: { line: number; sjh: string; hymc: string }[] };
type BatchReply = { sent: number; failed: number; results: { sjh: string; ok: boolean; msg: string }[] };

describe('batch invitations from an .xlsx', () => {
  it('gives a template, reads the sheet with phones normalised, and the list gets a result per phone', async () => {
    const tpl = await download(t, `/api/${INVITE_FILES.template}`, admin);
    expect(tpl.status).toBe(200);
    expect((await readSheet(tpl.body))[0]).toEqual([...INVITE_FILE_COLUMNS]);

    const file = await xlsx(INVITE_FILE_COLUMNS, [
      ['１３６ ０００１ ２３４５', '王一'],
      ['136-0001-2346', ' 李二 '],
      [ZHANG, '张伟'],
      ['12345', ''],
    ]);
    const read = await upload<Read>(t, INVITE_FILES.upload, admin, { name: '名单.xlsx', data: file });
    expect([read.code, read.msg]).toEqual([CODE.OK, MSG.ok]);
    expect(read.data.list.map((r) => [r.sjh, r.hymc])).toEqual([
      ['13600012345', '王一'],
      ['13600012346', '李二'],
      [ZHANG, '张伟'],
      ['12345', ''],
    ]);
    // The dialog fills the list with the rows and sends it as a pasted one.
    const text = read.data.list.map((r) => (r.hymc ? `${r.sjh} ${r.hymc}` : r.sjh)).join('\n');
    const sent = await t.call<BatchReply>(
      saveAgencyInviteListCall.path,
      { list: parseInviteLines(text), role: 0 },
      admin,
    );
    expect(sent.data.results.map((r) => [r.sjh, r.ok, r.msg])).toEqual([
      ['13600012345', true, '已发送邀请'],
      ['13600012346', true, '已发送邀请'],
      [ZHANG, false, '该用户已加入代理机构，不能重复加入'],
      ['12345', false, '请输入正确的手机号'],
    ]);
    // Full-width digits pasted straight into the list are read the same way.
    const pasted = await t.call<BatchReply>(
      saveAgencyInviteListCall.path,
      { list: parseInviteLines('１３６０００１２３４７ 赵三'), role: 0 },
      admin,
    );
    expect(pasted.data.results.map((r) => [r.sjh, r.ok])).toEqual([['13600012347', true]]);
  }, 180_000);

  it('refuses a wrong file type, an empty sheet, a changed header and too many rows', async () => {
    const txt = await upload(t, INVITE_FILES.upload, admin, { name: '名单.txt', data: Buffer.from('13600012345') });
    expect([txt.code, txt.msg]).toEqual([CODE.BAD_REQUEST, IMPORT_MSG.badType]);
    const renamed = await upload(t, INVITE_FILES.upload, admin, { name: '名单.xlsx', data: Buffer.from('hello') });
    expect([renamed.code, renamed.msg]).toEqual([CODE.BAD_REQUEST, IMPORT_MSG.badType]);
    const empty = await upload(t, INVITE_FILES.upload, admin, {
      name: '名单.xlsx',
      data: await xlsx(INVITE_FILE_COLUMNS, []),
    });
    expect([empty.code, empty.msg]).toEqual([CODE.BAD_REQUEST, INVITE_FILE_MSG.empty]);
    const header = await upload(t, INVITE_FILES.upload, admin, {
      name: '名单.xlsx',
      data: await xlsx(['电话', '名字'], [['13600012345', '王一']]),
    });
    expect([header.code, header.msg]).toEqual([CODE.BAD_REQUEST, IMPORT_MSG.header]);
    const rows = Array.from({ length: BATCH_INVITE_MAX + 1 }, (_, i) => [`1370000${String(i).padStart(4, '0')}`, '']);
    const many = await upload(t, INVITE_FILES.upload, admin, {
      name: '名单.xlsx',
      data: await xlsx(INVITE_FILE_COLUMNS, rows),
    });
    expect([many.code, many.msg]).toEqual([CODE.BAD_REQUEST, INVITE_FILE_MSG.tooMany]);
  }, 180_000);

  it('needs a session and 邀请员工', async () => {
    const file = await xlsx(INVITE_FILE_COLUMNS, [['13600012399', '']]);
    expect((await upload(t, INVITE_FILES.upload, zhang, { name: 'a.xlsx', data: file })).code).toBe(CODE.NO_PERMISSION);
    expect((await upload(t, INVITE_FILES.upload, undefined, { name: 'a.xlsx', data: file })).code).toBe(
      CODE.SESSION_EXPIRED,
    );
    expect((await download(t, `/api/${INVITE_FILES.template}`, zhang)).json().code).toBe(CODE.NO_PERMISSION);
  });
});
