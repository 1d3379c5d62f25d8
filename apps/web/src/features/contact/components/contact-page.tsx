import { ContactCreateSchema, contactMessages, type ContactCreate } from '@dataplatform/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Snackbar from '@mui/material/Snackbar';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { fieldProps } from '../../../components/form-field.js';
import { LoadingButton } from '../../../components/loading-button.js';
import { TOAST_AUTO_HIDE_MS } from '../../../lib/toast-store.js';
import { createContact } from '../api/create-contact.js';

type ContactFormValues = ContactCreate;
type ContactSubmission = z.output<typeof ContactCreateSchema>;

const EMPTY_FORM: ContactFormValues = {
  name: '',
  email: '',
  company: '',
  phone: '',
  subject: '',
  message: '',
  source: 'website',
  website: '',
};

/** Keeps an off-screen field out of sight and out of the tab order: only robots fill it in. */
const offScreen = { position: 'absolute', left: '-10000px', width: '1px', height: '1px', overflow: 'hidden' } as const;

interface Outcome {
  severity: 'success' | 'error';
  message: string;
}

/** /contact (SPEC.md section 2): the form, a snackbar with the result, a reset on success. */
export function ContactPage() {
  const [outcome, setOutcome] = useState<Outcome>();
  const form = useForm<ContactFormValues, unknown, ContactSubmission>({
    mode: 'onBlur',
    resolver: zodResolver(ContactCreateSchema),
    defaultValues: EMPTY_FORM,
  });

  const onSubmit = form.handleSubmit(async (parsed) => {
    try {
      await createContact({
        ...parsed,
        company: parsed.company || null,
        phone: parsed.phone || null,
        website: parsed.website || undefined,
      });
      form.reset(EMPTY_FORM);
      setOutcome({ severity: 'success', message: contactMessages.success });
    } catch {
      setOutcome({ severity: 'error', message: contactMessages.failure });
    }
  });

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
          onSubmit={onSubmit}
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
            <LoadingButton
              type="submit"
              variant="contained"
              size="large"
              loading={form.formState.isSubmitting}
              loadingText="Sending..."
            >
              Send Message
            </LoadingButton>
          </Box>
        </Box>
      </Paper>
      <Snackbar
        open={outcome !== undefined}
        autoHideDuration={TOAST_AUTO_HIDE_MS}
        onClose={(_event, reason) => {
          if (reason !== 'clickaway') setOutcome(undefined);
        }}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      >
        {outcome ? (
          <Alert severity={outcome.severity} variant="filled" onClose={() => setOutcome(undefined)}>
            {outcome.message}
          </Alert>
        ) : undefined}
      </Snackbar>
    </Container>
  );
}
