import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useState, type FocusEvent } from 'react';
import { useForm } from 'react-hook-form';
import { contactMessages, type ContactCreate } from '@dataplatform/contract';
import type { z } from 'zod';
import { fieldProps } from '../../../components/form-field.js';
import { createContact } from '../api/create-contact.js';
import type { Outcome } from './contact-outcome.js';
import { useSchemaOnDemand } from '../../../lib/schema-on-demand.js';
import type { ContactCreateSchema } from './contact-schema.js';

const loadSchema = () => import('./contact-schema.js').then((module) => module.ContactCreateSchema);

const loadOutcome = () => import('./contact-outcome.js');
const ContactOutcome = lazy(() => loadOutcome().then((module) => ({ default: module.ContactOutcome })));

const EMPTY: ContactCreate = { name: '', email: '', company: '', phone: '', subject: '', message: '', website: '' };

/** Keeps an off-screen field out of sight and out of the tab order: only robots fill it in. */
const offScreen = { position: 'absolute', left: '-10000px', width: '1px', height: '1px', overflow: 'hidden' } as const;

/** /contact (CONTACT-FORM-1 to CONTACT-FORM-3): the form, a snackbar with the result, a reset on success. */
export function ContactPage() {
  const [outcome, setOutcome] = useState<Outcome>();
  const [sentOnce, setSentOnce] = useState(false);
  // As the app's other forms: each field checked against the contract's schema when it loses focus,
  // every field on submit (the first invalid one focused), and after a submit on every change.
  const { onFormFocus, resolver } = useSchemaOnDemand(loadSchema);
  const form = useForm<ContactCreate, unknown, z.output<typeof ContactCreateSchema>>({
    mode: 'onBlur',
    resolver,
    defaultValues: EMPTY,
  });

  const onSubmit = form.handleSubmit(async (parsed) => {
    try {
      await createContact({
        ...parsed,
        company: parsed.company || null,
        phone: parsed.phone || null,
        website: parsed.website || undefined,
      });
      form.reset(EMPTY);
      setOutcome({ severity: 'success', message: contactMessages.success });
    } catch {
      setOutcome({ severity: 'error', message: contactMessages.failure });
    }
    setSentOnce(true);
  });

  // What the form needs after the first focus: its rules, and the snackbar that shows the result.
  const prepare = (event: FocusEvent) => {
    onFormFocus(event);
    void loadOutcome();
  };

  return (
    <Container maxWidth="md" sx={{ py: { xs: 4, md: 8 } }}>
      <Typography variant="h1" sx={{ mb: 2 }}>
        Contact Us
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4, fontSize: '1.1rem' }}>
        Questions about Studio, a data engineering project, a high-scale BI deployment or price-transparency data? Write
        to us and we will answer within two working days.
      </Typography>
      <Paper variant="outlined" sx={{ p: { xs: 3, md: 4 } }}>
        <Box
          component="form"
          noValidate
          onSubmit={(event) => void onSubmit(event)}
          onFocus={prepare}
          aria-label="Contact form"
          sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}
        >
          <TextField {...fieldProps(form, 'name')} label="Name" autoComplete="name" required fullWidth />
          <TextField
            {...fieldProps(form, 'email')}
            label="Email"
            type="email"
            autoComplete="email"
            required
            fullWidth
          />
          <TextField {...fieldProps(form, 'company')} label="Company" autoComplete="organization" fullWidth />
          <TextField {...fieldProps(form, 'phone')} label="Phone" type="tel" autoComplete="tel" fullWidth />
          <TextField
            {...fieldProps(form, 'subject')}
            label="Subject"
            required
            fullWidth
            sx={{ gridColumn: '1 / -1' }}
          />
          <TextField
            {...fieldProps(form, 'message')}
            label="Message"
            required
            fullWidth
            multiline
            rows={4}
            sx={{ gridColumn: '1 / -1' }}
          />
          <Box aria-hidden="true" sx={offScreen}>
            <label>
              Leave this field empty
              <input {...form.register('website')} tabIndex={-1} autoComplete="off" />
            </label>
          </Box>
          <Box sx={{ gridColumn: '1 / -1' }}>
            <Button
              type="submit"
              variant="contained"
              size="large"
              loading={form.formState.isSubmitting}
              loadingPosition="start"
            >
              {form.formState.isSubmitting ? 'Sending...' : 'Send Message'}
            </Button>
          </Box>
        </Box>
      </Paper>
      {sentOnce ? (
        <Suspense fallback={null}>
          <ContactOutcome outcome={outcome} onClose={() => setOutcome(undefined)} />
        </Suspense>
      ) : undefined}
    </Container>
  );
}
