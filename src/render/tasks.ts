/** What the render worker makes (PDFs, large CSV files): the rendering functions by name, each taking and returning plain data. */

import { renderLabels } from '../labels/label.js';
import { manifestCsv, renderManifest } from '../labels/manifest.js';
import { renderZpl } from '../labels/zpl.js';
import { outstandingCsv, remittanceResultsCsv } from '../waybill/csv/remittance-results.js';
import { renderChart } from './chart.js';

export const tasks = {
  labels: renderLabels,
  zpl: renderZpl,
  manifest: renderManifest,
  manifestCsv,
  remittanceResults: remittanceResultsCsv,
  outstanding: outstandingCsv,
  chart: renderChart,
};

export type Tasks = typeof tasks;
export type TaskName = keyof Tasks;
