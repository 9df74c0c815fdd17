import {
  BATCH_INVITE_MAX,
  CODE,
  IMPORT_MSG,
  INVITE_FILE_COLUMNS,
  INVITE_FILE_MAX_BYTES,
  INVITE_FILE_MSG,
  INVITE_FILES,
  INVITE_VALID_DAYS,
  MSG,
  normaliseInvitePhone,
} from '@dzy/shared';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { disposition, guard, templateWorkbook, uploadedFile, XLSX_MIME } from '../customer/customer.files.js';
import { readTableUpload } from '../customer/xlsx.js';

/**
 * Batch invitations from an .xlsx (issue 19 point 3): the template, and the upload that reads the sheet
 * in the spreadsheet worker into the list the dialog then sends through saveAgencyInviteList, so a file
 * and a pasted list get the same answer per phone. Nothing is sent by the upload itself.
 */
export function inviteFileRoutes(app: FastifyInstance, deps: Deps) {
  app.get(`/api/${INVITE_FILES.template}`, async (req, reply) => {
    await guard(deps, req, 'staff:invite');
    const buf = await templateWorkbook(
      '批量邀请',
      INVITE_FILE_COLUMNS,
      [['13800000001', '张三']],
      [
        '每行一人：手机号必填，姓名选填（不超过20个字）；示例行导入前请删除。',
        '角色标签和部门在邀请窗口中统一选择。',
        `一次最多${BATCH_INVITE_MAX}人，文件为 .xlsx 且不超过 1MB；请勿修改表头。`,
        `每人收到一条邀请短信，${INVITE_VALID_DAYS}天内有效。`,
      ],
    );
    return reply
      .header('content-type', XLSX_MIME)
      .header('content-disposition', disposition('批量邀请员工模板.xlsx'))
      .send(buf);
  });

  app.register(async (scope: FastifyInstance) => {
    await scope.register(fastifyMultipart, {
      limits: { fileSize: INVITE_FILE_MAX_BYTES, files: 1, fields: 5, headerPairs: 50, parts: 6 },
    });
    scope.post(`/api/${INVITE_FILES.upload}`, async (req) => {
      const s = await guard(deps, req, 'staff:invite');
      const { buf, fileName } = await uploadedFile(req, INVITE_FILE_MAX_BYTES, {
        missing: IMPORT_MSG.noFile,
        tooLarge: INVITE_FILE_MSG.tooLarge,
      });
      const read = await readTableUpload(buf, fileName, INVITE_FILE_COLUMNS, BATCH_INVITE_MAX, `agency:${s.agencyId}`);
      if (!read.ok) {
        const msg = {
          bad: IMPORT_MSG.badType,
          tooMany: INVITE_FILE_MSG.tooMany,
          tooBig: IMPORT_MSG.tooBig,
          busy: IMPORT_MSG.busy,
          header: IMPORT_MSG.header,
          empty: INVITE_FILE_MSG.empty,
        }[read.reason];
        throw new AppError(CODE.BAD_REQUEST, msg);
      }
      const list = read.rows
        .map(({ line, cells }) => ({
          line,
          sjh: normaliseInvitePhone(cells[0] ?? ''),
          hymc: (cells[1] ?? '').trim().slice(0, 20),
        }))
        .filter((r) => r.sjh || r.hymc);
      if (list.length === 0) throw new AppError(CODE.BAD_REQUEST, INVITE_FILE_MSG.empty);
      return { code: CODE.OK, msg: MSG.ok, data: { list } };
    });
  });
}
