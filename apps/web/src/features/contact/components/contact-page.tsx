import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useState } from 'react';
import { LoadingButton } from '../../../components/loading-button.js';
import { TextInput } from '../../../components/text-input.js';
import { needsApp } from '../../../lib/prerendered-hooks.js';
import { createContact } from '../api/create-contact.js';
import { loadContactValidation, useContactForm } from '../use-contact-form.js';
import type { Outcome } from './contact-outcome.js';

const loadOutcome = () => import('./contact-outcome.js');
const ContactOutcome = lazy(() => loadOutcome().then((module) => ({ default: module.ContactOutcome })));

/** Keeps an off-screen field out of sight and out of the tab order: only robots fill it in. */
const offScreen = { position: 'absolute', left: '-10000px', width: '1px', height: '1px', overflow: 'hidden' } as const;

/** /contact (CONTACT-FORM-1 to CONTACT-FORM-3): the form, a snackbar with the result, a reset on success. */
export function ContactPage() {
  const [outcome, setOutcome] = useState<Outcome>();
  const [sentOnce, setSentOnce] = useState(false);
  const { field, honeypotRef, handleSubmit, isSubmitting, reset } = useContactForm();

  const onSubmit = handleSubmit(async (parsed) => {
    const { contactMessages } = await loadContactValidation();
    try {
      await createContact({
        ...parsed,
        company: parsed.company || null,
        phone: parsed.phone || null,
        website: parsed.website || undefined,
      });
      reset();
      setOutcome({ severity: 'success', message: contactMessages.success });
    } catch {
      setOutcome({ severity: 'error', message: contactMessages.failure });
    }
    setSentOnce(true);
  });

  // What the form needs after the first focus: the rules, and the snackbar that shows the result.
  const prepare = () => {
    void loadContactValidation();
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
          {...needsApp}
          sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}
        >
          <TextInput {...field('name')} label="Name" autoComplete="name" required fullWidth />
          <TextInput {...field('email')} label="Email" type="email" autoComplete="email" required fullWidth />
          <TextInput {...field('company')} label="Company" autoComplete="organization" fullWidth />
          <TextInput {...field('phone')} label="Phone" type="tel" autoComplete="tel" fullWidth />
          <TextInput {...field('subject')} label="Subject" required fullWidth sx={{ gridColumn: '1 / -1' }} />
          <TextInput
            {...field('message')}
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
              <input name="website" ref={honeypotRef} tabIndex={-1} autoComplete="off" />
            </label>
          </Box>
          <Box sx={{ gridColumn: '1 / -1' }}>
            <LoadingButton
              type="submit"
              variant="contained"
              size="large"
              loading={isSubmitting}
              loadingText="Sending..."
            >
              Send Message
            </LoadingButton>
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
