// Writes the LibreOffice-made xlsx fixtures of the import validator tests
// (server/src/modules/imports/fixtures/libreoffice/*.xlsx).
//
// Each workbook is described below, written as a flat OpenDocument spreadsheet (.fods, with the
// cell types a person would get by typing into LibreOffice Calc: text, numbers, numbers with a
// format, dates, booleans, formulas, errors), and converted to xlsx by LibreOffice itself, so
// that the committed files come from LibreOffice's own xlsx writer. CI does not need LibreOffice:
// the files are committed. To regenerate (Debian: apt-get install libreoffice-calc-nogui):
//
//   node scripts/make-libreoffice-fixtures.mjs
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const OUT = path.resolve(import.meta.dirname, '../server/src/modules/imports/fixtures/libreoffice');

/**
 * Cells: a string is text, a number is a number, null is empty, and objects for the rest:
 * { n, style } a number with a style (see STYLES), { date }, { bool }, { formula, type, value }
 * (value: the result LibreOffice computes again on load).
 */
const WORKBOOKS = {
  // Same content as the validator test "accepts a valid file with a header row ..." plus formats.
  valid: [
    ['Code', 'Volume', 'Value'],
    ['1001', 12, 34.5],
    [1002, '1 234', '12,5'],
    ['A-7', '-3', '1,234.50'],
    ['1003', 7, null],
    ['1004', null, 99],
    ['  0012  ', '0,125', '1\u00a0234\u00a0567'],
  ],
  formats: [
    ['1001', { n: 1234.5, style: 'thousands' }, { n: 0.25, style: 'percent' }],
    ['1002', { n: 1500, style: 'currency' }, { n: 2.5, style: 'decimals' }],
  ],
  // Same content as the validator test "lists every row error ...".
  errors: [
    ['Code', 'Volume', 'Value'],
    ['X-404', 1, 1],
    ['1006', 1, 1],
    ['1005', 1, 1],
    ['1001', 1, 1],
    ['1001', 2, 2],
    ['1002', 'abc', '1,234'],
    ['1003', 1, 5],
    ['1004', 5, 1],
    [null, 5, 6],
    [1.5, 1, 1],
    ['A-7', 1e16, 1],
    ['X-404', 'x', null],
  ],
  formulas: [
    ['Code', 'Volume', 'Value'],
    [
      { formula: 'of:="10"&"01"', type: 'string', value: '1001' },
      { formula: 'of:=2*3', type: 'float', value: 6 },
      { formula: 'of:=[.B2]/4', type: 'float', value: 1.5 },
    ],
    [{ formula: 'of:=1000+2', type: 'float', value: 1002 }, { formula: 'of:=TEXT(5;"0")', type: 'string', value: '5' }, 7],
  ],
  types: [
    ['1001', { date: '2026-01-15' }, 1],
    ['1002', { bool: true }, { formula: 'of:=1/0', type: 'float', value: 0 }],
    [{ date: '2026-01-15' }, 1, 1],
    [{ bool: false }, 1, 1],
    [{ formula: 'of:=NA()', type: 'float', value: 0 }, 1, 1],
  ],
};

/**
 * The import template as a person fills it in (Code | Volume | Value | Name | Note, codes typed as
 * text, figures as numbers), saved by LibreOffice as xlsx and as CSV in two locales: en-US (',' and
 * a decimal point) and sv-SE (';' and a decimal comma). The same rows as the validator's valid file.
 */
const TEMPLATE = [
  ['Code', 'Volume', 'Value', 'Name', 'Note'],
  ['1001', 12, 34.5, 'Bolts, "heavy"', null],
  ['1002', 1234, 12.5, 'Nuts; small', null],
  ['A-7', -3, 1234.5, 'Washers', null],
  ['1003', 7, null, 'Screws', 'Value not reported for this code: leave column C (Value) empty.'],
  ['1004', null, 99, 'Rivets', 'Volume not reported for this code: leave column B (Volume) empty.'],
  ['0012', 0.125, 1234567, 'Pins\nand needles', null],
];
/** The CSV exports: the locale LibreOffice runs in, and the separator it is told to use (the one that locale's users get). */
const CSV_EXPORTS = {
  'en-US': { locale: 'en-US', separator: 44 },
  'sv-SE': { locale: 'sv-SE', separator: 59 },
};

const STYLES = {
  date: '<number:date-style style:name="N-date"><number:year number:style="long"/><number:text>-</number:text><number:month number:style="long"/><number:text>-</number:text><number:day number:style="long"/></number:date-style>',
  bool: '<number:boolean-style style:name="N-bool"><number:boolean/></number:boolean-style>',
  thousands:
    '<number:number-style style:name="N-thousands"><number:number number:decimal-places="2" number:min-decimal-places="2" number:min-integer-digits="1" number:grouping="true"/></number:number-style>',
  percent:
    '<number:percentage-style style:name="N-percent"><number:number number:decimal-places="0" number:min-decimal-places="0" number:min-integer-digits="1"/><number:text>%</number:text></number:percentage-style>',
  currency:
    '<number:currency-style style:name="N-currency"><number:number number:decimal-places="2" number:min-decimal-places="2" number:min-integer-digits="1" number:grouping="true"/><number:text> </number:text><number:currency-symbol>€</number:currency-symbol></number:currency-style>',
  decimals:
    '<number:number-style style:name="N-decimals"><number:number number:decimal-places="3" number:min-decimal-places="3" number:min-integer-digits="1"/></number:number-style>',
};

const escape = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** A cell's text: a paragraph per line. */
const paragraph = (text) =>
  String(text)
    .split('\n')
    .map(
      (line) =>
        `<text:p>${escape(line)
          .replace(/ {2,}/g, (spaces) => ` <text:s text:c="${spaces.length - 1}"/>`)
          .replace(/^ /, '<text:s/>')}</text:p>`,
    )
    .join('');

function cell(value) {
  if (value === null) return '<table:table-cell/>';
  if (typeof value === 'string') return `<table:table-cell office:value-type="string">${paragraph(value)}</table:table-cell>`;
  if (typeof value === 'number') return `<table:table-cell office:value-type="float" office:value="${value}">${paragraph(value)}</table:table-cell>`;
  if ('date' in value)
    return `<table:table-cell table:style-name="C-date" office:value-type="date" office:date-value="${value.date}">${paragraph(value.date)}</table:table-cell>`;
  if ('bool' in value)
    return `<table:table-cell table:style-name="C-bool" office:value-type="boolean" office:boolean-value="${value.bool}">${paragraph(value.bool ? 'TRUE' : 'FALSE')}</table:table-cell>`;
  if ('n' in value) {
    const type = value.style === 'percent' ? 'percentage' : value.style === 'currency' ? 'currency' : 'float';
    const currency = type === 'currency' ? ' office:currency="EUR"' : '';
    return `<table:table-cell table:style-name="C-${value.style}" office:value-type="${type}"${currency} office:value="${value.n}">${paragraph(value.n)}</table:table-cell>`;
  }
  const result = value.type === 'string' ? `office:string-value="${escape(value.value)}"` : `office:value="${value.value}"`;
  return `<table:table-cell table:formula="${escape(value.formula)}" office:value-type="${value.type}" ${result}>${paragraph(value.value)}</table:table-cell>`;
}

function fods(rows) {
  const cellStyles = Object.keys(STYLES)
    .map((name) => `<style:style style:name="C-${name}" style:family="table-cell" style:parent-style-name="Default" style:data-style-name="N-${name}"/>`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0" xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:styles>${Object.values(STYLES).join('')}</office:styles>
<office:automatic-styles>${cellStyles}</office:automatic-styles>
<office:body><office:spreadsheet><table:table table:name="Report">
<table:table-column table:number-columns-repeated="5"/>
${rows.map((row) => `<table:table-row>${row.map(cell).join('')}</table:table-row>`).join('\n')}
</table:table></office:spreadsheet></office:body></office:document>
`;
}

/** A LibreOffice profile of its own (no first-start wizard, no interference with a user's), in a locale. */
function profile(work, locale) {
  const dir = path.join(work, `profile-${locale}`);
  fs.mkdirSync(path.join(dir, 'user'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'user', 'registrymodifications.xcu'),
    `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Setup/L10N"><prop oor:name="ooSetupSystemLocale" oor:op="fuse"><value>${locale}</value></prop></item>
<item oor:path="/org.openoffice.Setup/L10N"><prop oor:name="ooLocale" oor:op="fuse"><value>${locale}</value></prop></item>
</oor:items>
`,
  );
  return `-env:UserInstallation=file://${dir}`;
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mss-lo-fixtures-'));
try {
  // The template, filled in: as xlsx (below, with the other workbooks) and as CSV in each locale.
  WORKBOOKS.template = TEMPLATE;
  fs.writeFileSync(path.join(work, 'template.fods'), fods(TEMPLATE));
  for (const [name, { locale, separator }] of Object.entries(CSV_EXPORTS)) {
    const outdir = path.join(work, name);
    // Separator, text delimiter '"', UTF-8 (76), from line 1; cells saved as shown (token 9).
    const filter = `csv:Text - txt - csv (StarCalc):${separator},34,76,1,,0,false,true,true`;
    execFileSync('soffice', [profile(work, locale), '--headless', '--calc', '--convert-to', filter, '--outdir', outdir, path.join(work, 'template.fods')], {
      stdio: 'inherit',
    });
    fs.copyFileSync(path.join(outdir, 'template.csv'), path.join(OUT, `template-${name}.csv`));
  }
  fs.mkdirSync(OUT, { recursive: true });
  for (const [name, rows] of Object.entries(WORKBOOKS)) fs.writeFileSync(path.join(work, `${name}.fods`), fods(rows));
  const sources = Object.keys(WORKBOOKS).map((name) => path.join(work, `${name}.fods`));
  execFileSync('soffice', [profile(work, 'en-US'), '--headless', '--calc', '--convert-to', 'xlsx:Calc MS Excel 2007 XML', '--outdir', OUT, ...sources], {
    stdio: 'inherit',
  });
  const version = execFileSync('soffice', ['--version'], { encoding: 'utf8' }).trim();
  fs.writeFileSync(
    path.join(OUT, 'README.md'),
    `# LibreOffice fixtures\n\nWritten by \`node scripts/make-libreoffice-fixtures.mjs\` with ${version}.\nThe workbooks are described in that script; \`imports.validator.test.ts\` validates them.\nThe \`template-*.csv\` files are the filled-in template saved as CSV by LibreOffice in the en-US and sv-SE locales.\n`,
  );
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
