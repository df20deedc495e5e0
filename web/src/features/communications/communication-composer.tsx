import './texts.ts';
import '@mantine/tiptap/styles.css';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueries, useQuery } from '@tanstack/react-query';
import {
  Alert,
  Anchor,
  Button,
  FileButton,
  Group,
  Input,
  List,
  MultiSelect,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { RichTextEditor } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import Link from '@tiptap/extension-link';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MAX_COUNT,
  COMMUNICATION_VARIABLES,
  FOOT_NOTES_MAX_LENGTH,
  SUBJECT_MAX_LENGTH,
  type Communication,
  type CommunicationInput,
  type CommunicationVariable,
} from '@mss/contracts/communications';
import { CommunicationStatus, ReportStatus, type Role } from '@mss/contracts/enums';
import { periodQueries } from '../periods/index.ts';
import { reportQueries } from '../reports/index.ts';
import { optionQueries } from '../../api/options.ts';
import { feedback } from '../../components/feedback.tsx';
import { useCan } from '../../components/fields.tsx';
import { showSaveError } from '../../lib/form.ts';
import { useEnumLabel, useEnumOptions } from '../../lib/enum-options.ts';
import { useMarketsWith } from '../../lib/markets.ts';
import { attachmentUrl, communicationsApi, useCommunicationMutation } from './api/communications.ts';
import { ATTACHMENT_ACCEPT, ATTACHMENT_TYPE_NAMES, attachmentProblem, formatBytes } from './communication-parts.tsx';

export interface ComposerValues {
  subject: string;
  body: string;
  foot_notes: string;
  market_ids: string[];
  roles: string[];
  company_ids: string[];
  period_uuid: string | null;
  report_statuses: string[];
}

const FIELDS = ['subject', 'body', 'foot_notes', 'market_ids', 'roles', 'company_ids', 'period_uuid', 'report_statuses'] as const;

/** The server names the filter's fields under `recipients`; the most specific first. */
const ALIASES: Record<string, string> = {
  'recipients.market_ids': 'market_ids',
  'recipients.roles': 'roles',
  'recipients.company_ids': 'company_ids',
  'recipients.period_uuid': 'period_uuid',
  'recipients.report_statuses': 'report_statuses',
  recipients: 'market_ids',
};

export function valuesOf(communication: Communication | undefined, defaultMarket?: number): ComposerValues {
  const filter = communication?.recipients;
  return {
    subject: communication?.subject ?? '',
    body: communication?.body ?? '',
    foot_notes: communication?.foot_notes ?? '',
    market_ids: filter ? filter.market_ids.map(String) : defaultMarket ? [String(defaultMarket)] : [],
    roles: filter?.roles ?? [],
    company_ids: filter?.company_ids.map(String) ?? [],
    period_uuid: filter?.period_uuid ?? null,
    report_statuses: stagesOf(filter?.report_statuses ?? []),
  };
}

/**
 * The report-status filter in a person's words: where each report is on its way, not the workflow's
 * technical states ("Processing file"). A stage stands for the statuses it covers; the filter the
 * server keeps is those statuses.
 */
export const REPORT_STAGES = {
  not_submitted: [ReportStatus.ProcessingFile, ReportStatus.InvalidFile, ReportStatus.Ongoing, ReportStatus.ProcessingData],
  waiting: [ReportStatus.WaitingForApproval],
  sent_back: [ReportStatus.WaitingForCompletion],
  approved: [ReportStatus.Approved],
} as const satisfies Record<string, readonly number[]>;
type ReportStage = keyof typeof REPORT_STAGES;

/** The stages a stored filter names (a stage is chosen when any of its statuses is). */
export function stagesOf(statuses: readonly number[]): string[] {
  return (Object.keys(REPORT_STAGES) as ReportStage[]).filter((stage) => REPORT_STAGES[stage].some((s) => statuses.includes(s)));
}
const statusesOf = (stages: readonly string[]): number[] => stages.flatMap((stage) => [...(REPORT_STAGES[stage as ReportStage] ?? [])]);

export function inputOf(values: ComposerValues): CommunicationInput {
  return {
    subject: values.subject.trim(),
    body: values.body,
    foot_notes: values.foot_notes.trim() === '' ? null : values.foot_notes,
    recipients: {
      market_ids: values.market_ids.map(Number),
      roles: values.roles as Role[],
      company_ids: values.company_ids.map(Number),
      period_uuid: values.period_uuid,
      report_statuses: values.period_uuid ? statusesOf(values.report_statuses) : [],
    },
  };
}

/** `{{name}}` put into `text` in place of the selection from `start` to `end`; returns the text and the cursor after it. */
export function insertAt(text: string, token: string, start: number | null, end: number | null): { text: string; cursor: number } {
  const from = start ?? text.length;
  const to = end ?? from;
  return { text: text.slice(0, from) + token + text.slice(to), cursor: from + token.length };
}

const token = (name: CommunicationVariable) => `{{${name}}}`;

/** The periods of the chosen markets, newest first (an open one is what a reminder names). */
function usePeriodOptions(marketIds: number[]) {
  const results = useQueries({ queries: marketIds.map((id) => ({ ...periodQueries.periods({ market_id: id }), meta: { handlesErrors: true } })) });
  const several = marketIds.length > 1;
  const periods = results.flatMap((r) => r.data ?? []).sort((a, b) => b.starts_on.localeCompare(a.starts_on));
  return periods.map((p) => ({ value: p.uuid, label: several ? `${p.title} (${p.market.iso_code})` : p.title }));
}

/**
 * The companies of the chosen markets: every company (GET /companies/companies-with-disabled) for
 * whoever manages companies; otherwise the companies that report in those markets (their reports
 * in the chosen period, or in any period of the markets).
 */
function useCompanyOptions(marketIds: number[], periodUuid: string | null) {
  const manage = useCan('manage-companies');
  const all = useQuery({ ...optionQueries.companies(), enabled: manage, meta: { handlesErrors: true } });
  const reports = useQueries({
    queries: manage ? [] : periodUuid ? [reportQueries.reports({ period_uuid: periodUuid })] : marketIds.map((id) => reportQueries.reports({ market_id: id })),
  });
  if (manage) {
    return (all.data ?? [])
      .filter((c) => !c.disabled_at && c.markets.some((m) => marketIds.includes(m.id)))
      .map((c) => ({ value: String(c.id), label: c.name }))
      .sort((a, b) => a.label.localeCompare(b.label));
  }
  const companies = new Map<number, string>();
  for (const result of reports)
    for (const report of result.data ?? []) if (marketIds.includes(report.market.id)) companies.set(report.company.id, report.company.name);
  return [...companies].map(([id, name]) => ({ value: String(id), label: name })).sort((a, b) => a.label.localeCompare(b.label));
}

export interface ComposerProps {
  /** The draft being edited; undefined for a new one. */
  communication?: Communication;
  /** After the first save of a new draft. */
  onCreated: (communication: Communication) => void;
  onDeleted: () => void;
  /** Whether the form holds changes not yet saved (the preflight needs them saved). */
  onDirtyChange?: (dirty: boolean) => void;
}

/** The draft's form: subject and rich-text body with variables, foot notes, the recipient filter, attachments. */
export function CommunicationComposer({ communication, onCreated, onDeleted, onDirtyChange }: ComposerProps) {
  const { t } = useTranslation();
  const { markets, options: marketOptions } = useMarketsWith('send-communications');
  const roleOptions = useEnumOptions<string>('role');
  const form = useForm<ComposerValues>({
    initialValues: valuesOf(communication, markets.length === 1 ? markets[0]?.id : undefined),
    validate: {
      subject: (value) => (value.trim() ? null : t('communication.subject_required')),
      market_ids: (value) => (value.length ? null : t('communication.filter.markets_required')),
    },
  });
  const create = useCommunicationMutation(communicationsApi.create);
  const update = useCommunicationMutation(communicationsApi.update);
  const remove = useCommunicationMutation(communicationsApi.remove);

  // A single market is chosen for the user once the markets are known.
  useEffect(() => {
    if (!communication && markets.length === 1 && !form.values.market_ids.length) form.setFieldValue('market_ids', [String(markets[0]!.id)]);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [markets.length]);

  const dirty = form.isDirty();
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange]);
  useEffect(() => () => onDirtyChange?.(false), [onDirtyChange]);

  const subjectRef = useRef<HTMLInputElement>(null);
  // The field a variable goes into: the one last focused (a ref: read in the click, never rendered).
  const target = useRef<'subject' | 'body'>('body');
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: false }), Link.configure({ openOnClick: false })],
    content: form.values.body,
    onUpdate: ({ editor: e }) => form.setFieldValue('body', e.isEmpty ? '' : e.getHTML()),
    onFocus: () => {
      target.current = 'body';
    },
  });

  const insertVariable = (name: CommunicationVariable) => {
    if (target.current === 'subject' || !editor) {
      const input = subjectRef.current;
      const { text, cursor } = insertAt(form.values.subject, token(name), input?.selectionStart ?? null, input?.selectionEnd ?? null);
      form.setFieldValue('subject', text);
      requestAnimationFrame(() => {
        input?.focus();
        input?.setSelectionRange(cursor, cursor);
      });
    } else {
      editor.chain().focus().insertContent(token(name)).run();
    }
  };

  const marketIds = useMemo(() => form.values.market_ids.map(Number), [form.values.market_ids]);
  const periodOptions = usePeriodOptions(marketIds);
  const companyOptions = useCompanyOptions(marketIds, form.values.period_uuid);
  const statusOptions = (Object.keys(REPORT_STAGES) as ReportStage[]).map((stage) => ({ value: stage, label: t(`communication.stage.${stage}`) }));

  const submit = form.onSubmit(async (values) => {
    try {
      const input = inputOf(values);
      if (communication) {
        const saved = await update.mutateAsync({ uuid: communication.uuid, input });
        form.setValues(valuesOf(saved));
        form.resetDirty(valuesOf(saved));
        feedback.toast(t('communication.saved', { subject: saved.subject }), { color: 'teal' });
      } else {
        const created = await create.mutateAsync(input);
        form.resetDirty();
        feedback.toast(t('communication.saved', { subject: created.subject }), { color: 'teal' });
        onCreated(created);
      }
    } catch (error) {
      showSaveError(form, error, FIELDS, t('communication.model'), ALIASES);
    }
  });

  const onDelete = async () => {
    if (!communication) return;
    const ok = await feedback.confirm({
      message: t('communication.delete_confirm', { subject: communication.subject }),
      confirmLabel: t('communication.delete_draft'),
      danger: true,
    });
    if (!ok) return;
    try {
      await feedback.loading.during(remove.mutateAsync(communication.uuid));
      feedback.toast(t('communication.deleted', { subject: communication.subject }), { color: 'teal' });
      onDeleted();
    } catch (error) {
      await feedback.errorOf(error);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('communication.tab.message')}>
      <Stack gap="md">
        <TextInput
          ref={subjectRef}
          label={t('communication.subject')}
          required
          maxLength={SUBJECT_MAX_LENGTH}
          {...form.getInputProps('subject')}
          onFocus={(event) => {
            target.current = 'subject';
            form.getInputProps('subject').onFocus?.(event);
          }}
        />
        <VariablePicker onInsert={insertVariable} />
        <Input.Wrapper label={t('communication.body')} error={form.errors.body} id="communication-body">
          <RichTextEditor editor={editor} aria-invalid={!!form.errors.body} style={{ overflowWrap: 'anywhere' }}>
            <RichTextEditor.Toolbar>
              <RichTextEditor.ControlsGroup>
                <RichTextEditor.Bold />
                <RichTextEditor.Italic />
                <RichTextEditor.Underline />
                <RichTextEditor.Strikethrough />
              </RichTextEditor.ControlsGroup>
              <RichTextEditor.ControlsGroup>
                <RichTextEditor.H2 />
                <RichTextEditor.H3 />
                <RichTextEditor.BulletList />
                <RichTextEditor.OrderedList />
              </RichTextEditor.ControlsGroup>
              <RichTextEditor.ControlsGroup>
                <RichTextEditor.Link />
                <RichTextEditor.Unlink />
              </RichTextEditor.ControlsGroup>
              <RichTextEditor.ControlsGroup>
                <RichTextEditor.Undo />
                <RichTextEditor.Redo />
              </RichTextEditor.ControlsGroup>
            </RichTextEditor.Toolbar>
            <RichTextEditor.Content aria-label={t('communication.body')} mih={180} />
          </RichTextEditor>
        </Input.Wrapper>
        <Textarea
          label={t('communication.foot_notes')}
          description={t('communication.foot_notes_hint')}
          autosize
          minRows={2}
          maxRows={8}
          maxLength={FOOT_NOTES_MAX_LENGTH}
          {...form.getInputProps('foot_notes')}
        />

        <Paper withBorder radius="md" p="md">
          <Stack gap="sm">
            <Title order={3} fz="h5">
              {t('communication.filter.title')}
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <MultiSelect
                label={t('communication.filter.markets')}
                required
                data={marketOptions}
                searchable
                {...form.getInputProps('market_ids')}
                onChange={(value) => {
                  form.setFieldValue('market_ids', value);
                  // A period belongs to one market: it goes when its market does.
                  form.setFieldValue('period_uuid', null);
                  form.setFieldValue('report_statuses', []);
                  form.setFieldValue('company_ids', []);
                }}
              />
              <MultiSelect
                label={t('communication.filter.roles')}
                description={t('communication.filter.roles_hint')}
                data={roleOptions}
                searchable
                {...form.getInputProps('roles')}
              />
              <MultiSelect
                label={t('communication.filter.companies')}
                description={t('communication.filter.companies_hint')}
                data={companyOptions}
                searchable
                disabled={!marketIds.length}
                {...form.getInputProps('company_ids')}
              />
              <Select
                label={t('communication.filter.period')}
                description={t('communication.filter.period_hint')}
                data={periodOptions}
                searchable
                clearable
                disabled={!marketIds.length}
                {...form.getInputProps('period_uuid')}
                onChange={(value) => {
                  form.setFieldValue('period_uuid', value);
                  if (!value) form.setFieldValue('report_statuses', []);
                }}
              />
              <MultiSelect
                label={t('communication.filter.report_statuses')}
                description={form.values.period_uuid ? t('communication.filter.report_statuses_hint') : t('communication.filter.report_statuses_disabled')}
                data={statusOptions}
                searchable
                disabled={!form.values.period_uuid}
                {...form.getInputProps('report_statuses')}
              />
            </SimpleGrid>
          </Stack>
        </Paper>

        <Attachments communication={communication} />

        <Group justify="space-between" gap="sm">
          <Button type="submit" loading={create.isPending || update.isPending}>
            {t('communication.save_draft')}
          </Button>
          {communication && (
            <Button color="red" variant="light" onClick={() => void onDelete()}>
              {t('communication.delete_draft')}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

/** The variables a subject or body may hold; a click puts `{{name}}` at the cursor of the field last used. */
export function VariablePicker({ onInsert }: { onInsert: (name: CommunicationVariable) => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {t('communication.variables')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('communication.variables_hint')}
      </Text>
      <Group gap={6}>
        {COMMUNICATION_VARIABLES.map((name) => (
          <Button
            key={name}
            size="compact-xs"
            variant="light"
            // Keeps the focus (and the cursor) in the subject or the editor.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => onInsert(name)}
            aria-label={t('communication.insert_variable', { name: t(`communication.variable.${name}`) })}
            title={t(`communication.variable.${name}`)}
            styles={{ label: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          >
            {token(name)}
          </Button>
        ))}
      </Group>
      <Text size="xs" c="dimmed">
        {t('communication.variables_need_period')}
      </Text>
    </Stack>
  );
}

/** The draft's attachments: the limits, upload and removal (a new draft is saved first). */
export function Attachments({ communication, readOnly = false }: { communication?: Communication; readOnly?: boolean }) {
  const { t } = useTranslation();
  const upload = useCommunicationMutation(communicationsApi.uploadAttachment);
  const remove = useCommunicationMutation(communicationsApi.removeAttachment);
  const [problem, setProblem] = useState<string | null>(null);
  const attachments = communication?.attachments ?? [];
  const full = attachments.length >= ATTACHMENT_MAX_COUNT;

  const add = async (file: File | null) => {
    if (!file || !communication) return;
    const reason = attachmentProblem(file, attachments.length, t);
    setProblem(reason);
    if (reason) return;
    try {
      const stored = await upload.mutateAsync({ uuid: communication.uuid, file });
      // The server names a file by its content (x.html that holds text is x.txt): say so when it did.
      feedback.toast(
        stored.name === file.name
          ? t('communication.attachment.added', { name: file.name })
          : t('communication.attachment.added_as', { name: file.name, stored: stored.name }),
        { color: 'teal' },
      );
    } catch (error) {
      setProblem(error instanceof Error ? error.message : null);
    }
  };

  const drop = async (id: number, name: string) => {
    if (!communication) return;
    const ok = await feedback.confirm({ message: t('communication.attachment.remove_confirm', { name }), confirmLabel: t('admin.delete'), danger: true });
    if (!ok) return;
    try {
      await feedback.loading.during(remove.mutateAsync({ uuid: communication.uuid, id }));
      feedback.toast(t('communication.attachment.removed', { name }), { color: 'teal' });
      setProblem(null);
    } catch (error) {
      await feedback.errorOf(error);
    }
  };

  return (
    <Stack gap="xs" data-testid="attachments">
      <Text size="sm" fw={500}>
        {t('communication.attachments')}
      </Text>
      {!readOnly && (
        <Text size="xs" c="dimmed">
          {t('communication.attachments_limits', { count: ATTACHMENT_MAX_COUNT, size: formatBytes(ATTACHMENT_MAX_BYTES), types: ATTACHMENT_TYPE_NAMES })}
        </Text>
      )}
      {attachments.length ? (
        <List spacing={4} listStyleType="none" p={0}>
          {attachments.map((a) => (
            <List.Item key={a.id}>
              <Group gap="xs" wrap="nowrap">
                <Anchor href={communication ? attachmentUrl(communication.uuid, a.id) : undefined} size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {a.name}
                </Anchor>
                <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  {formatBytes(a.size)}
                </Text>
                {!readOnly && (
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    color="red"
                    onClick={() => void drop(a.id, a.name)}
                    aria-label={t('communication.attachment.remove', { name: a.name })}
                  >
                    {t('admin.delete')}
                  </Button>
                )}
              </Group>
            </List.Item>
          ))}
        </List>
      ) : (
        <Text size="sm" c="dimmed">
          {t('common.empty')}
        </Text>
      )}
      {!readOnly &&
        (communication ? (
          <Group>
            <FileButton onChange={(file) => void add(file)} accept={ATTACHMENT_ACCEPT}>
              {(props) => (
                <Button {...props} variant="default" size="xs" loading={upload.isPending} disabled={full}>
                  {t('communication.attachment.add')}
                </Button>
              )}
            </FileButton>
          </Group>
        ) : (
          <Text size="xs" c="dimmed">
            {t('communication.attachments_save_first')}
          </Text>
        ))}
      {!readOnly && full && !problem && (
        <Text size="sm" c="orange" role="status">
          {t('communication.attachment.too_many', { count: ATTACHMENT_MAX_COUNT })}
        </Text>
      )}
      {problem && (
        <Alert color="red" role="alert" p="xs">
          {problem}
        </Alert>
      )}
    </Stack>
  );
}

/** A sent (or preflighted) communication's content, read only. */
export function CommunicationContent({ communication }: { communication: Communication }) {
  const { t } = useTranslation();
  const enumLabel = useEnumLabel();
  const { markets } = useMarketsWith('send-communications');
  const marketNames = communication.recipients.market_ids.map((id) => markets.find((m) => m.id === id)?.international_name ?? String(id));
  return (
    <Stack gap="sm">
      {/* Going back to draft is for a preflighted mail not yet sent; an automatic reminder is never edited. */}
      {!communication.reminder && communication.status < CommunicationStatus.WaitingToBeSent && <Alert color="blue">{t('communication.not_editable')}</Alert>}
      <Text size="sm" c="dimmed">
        {t('communication.subject')}
      </Text>
      <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
        {communication.subject}
      </Text>
      <Text size="sm" c="dimmed">
        {t('communication.body')}
      </Text>
      <MailFrame html={communication.body} title={t('communication.body')} />
      {communication.foot_notes && (
        <>
          <Text size="sm" c="dimmed">
            {t('communication.foot_notes')}
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {communication.foot_notes}
          </Text>
        </>
      )}
      <Text size="sm" c="dimmed">
        {t('communication.filter.title')}
      </Text>
      <Text size="sm">
        {t('communication.filter.markets')}: {marketNames.join(', ')}
        {communication.recipients.roles.length > 0 && (
          <>
            {' · '}
            {t('communication.filter.roles')}: {communication.recipients.roles.map((r) => enumLabel('role', r)).join(', ')}
          </>
        )}
        {communication.period_title && (
          <>
            {' · '}
            {t('communication.filter.period')}: {communication.period_title}
          </>
        )}
        {communication.recipients.report_statuses.length > 0 && (
          <>
            {' · '}
            {t('communication.filter.report_statuses')}: {communication.recipients.report_statuses.map((s) => enumLabel('report_status', s)).join(', ')}
          </>
        )}
      </Text>
      <Attachments communication={communication} readOnly />
    </Stack>
  );
}

/**
 * HTML of a mail in a sandboxed frame: no script runs, no form posts and the page's styles and
 * session are out of its reach (`sandbox=""`), whatever the HTML holds.
 */
export function MailFrame({ html, title }: { html: string; title: string }) {
  return (
    <iframe
      title={title}
      sandbox=""
      srcDoc={html}
      referrerPolicy="no-referrer"
      style={{ width: '100%', minHeight: 320, border: '1px solid var(--mantine-color-gray-3)', borderRadius: 'var(--mantine-radius-sm)', background: 'white' }}
    />
  );
}
