/**
 * The files the server's imports read (readTableUpload in the server's customer/xlsx.ts): an .xlsx, or a .csv
 * in UTF-8 or GB18030 as spreadsheet programs save it. The contract-template import is .xlsx only (spec).
 */
export const TABLE_FILE_ACCEPT = '.xlsx,.csv';
export const TABLE_FILE_LABEL = '.xlsx 或 .csv';
export const isTableFile = (name: string) => /\.(xlsx|csv)$/i.test(name);
