import { billingMessages, type PaymentMethod } from '@dataplatform/contract';
import CreditCard from '@mui/icons-material/CreditCard';
import Delete from '@mui/icons-material/Delete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { showToast } from '../../../lib/toast-store.js';
import {
  paymentMethodsQueryOptions,
  useDeletePaymentMethod,
  useSetDefaultPaymentMethod,
} from '../api/payment-methods.js';
import { CardList } from '../../../components/card-list.js';
import { QueryState } from '../../../components/query-state.js';
import { TabHeader } from '../../../components/tab-heading.js';

// The add-card dialog (its card rules, zod, the text fields) loads as the pointer or the focus nears
// its button, not with the tab.
const loadAddDialog = () => import('./add-payment-method-dialog.js');
const AddPaymentMethodDialog = lazy(async () => ({ default: (await loadAddDialog()).AddPaymentMethodDialog }));

/** "12/35": the expiry a saved card shows (SET-CARDS-1), as MM/YY. */
export function formatCardExpiry(method: Pick<PaymentMethod, 'expiry_month' | 'expiry_year'>): string {
  return `${String(method.expiry_month).padStart(2, '0')}/${String(method.expiry_year % 100).padStart(2, '0')}`;
}

/** Payment Methods: saved cards, the default one marked, set as default, delete, add. */
export function PaymentMethodsTab() {
  const methods = useQuery(paymentMethodsQueryOptions());
  const setDefault = useSetDefaultPaymentMethod();
  const remove = useDeletePaymentMethod();
  const [adding, setAdding] = useState(false);
  // Mounted from the first opening on, so closing keeps the dialog's exit transition.
  const [opened, setOpened] = useState(false);
  const [deleting, setDeleting] = useState<PaymentMethod>();
  const cards = methods.data?.data ?? [];

  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <TabHeader title="Payment Methods">
        <Button
          variant="contained"
          startIcon={<CreditCard aria-hidden="true" />}
          onClick={() => {
            setOpened(true);
            setAdding(true);
          }}
          onPointerEnter={() => void loadAddDialog()}
          onFocus={() => void loadAddDialog()}
        >
          Add Payment Method
        </Button>
      </TabHeader>
      <QueryState
        query={methods}
        loading="Loading payment methods..."
        failed="Error loading payment methods. Please try again later."
        empty={billingMessages.noPaymentMethods}
        isEmpty={cards.length === 0}
        content={() => (
          <CardList label="Saved cards">
            {cards.map((card) => (
              <Card
                component="li"
                key={card.id}
                variant="outlined"
                sx={card.is_default ? { borderColor: 'primary.main', borderWidth: 2 } : undefined}
              >
                <CardContent>
                  <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
                    <Typography variant="h3" sx={{ fontSize: '1.1rem' }}>
                      {card.card_type.toUpperCase()}
                    </Typography>
                    {card.is_default ? <Chip size="small" color="primary" label="Default" /> : undefined}
                  </Box>
                  <Typography sx={{ mt: 1, fontSize: '1.1rem', letterSpacing: 1 }}>•••• {card.last_four}</Typography>
                  <Typography variant="body2" color="text.secondary">
                    Expires {formatCardExpiry(card)}
                  </Typography>
                </CardContent>
                <CardActions sx={{ justifyContent: 'space-between' }}>
                  {card.is_default ? (
                    <span />
                  ) : (
                    <Button
                      size="small"
                      loading={setDefault.isPending && setDefault.variables === card.id}
                      disabled={setDefault.isPending}
                      onClick={() =>
                        setDefault.mutate(card.id, {
                          onSuccess: () => showToast('Default payment method updated', 'success'),
                        })
                      }
                    >
                      Set as Default
                    </Button>
                  )}
                  <IconButton aria-label={`Delete card ending in ${card.last_four}`} onClick={() => setDeleting(card)}>
                    <Delete />
                  </IconButton>
                </CardActions>
              </Card>
            ))}
          </CardList>
        )}
      />
      {opened ? (
        <Suspense fallback={null}>
          <AddPaymentMethodDialog open={adding} onClose={() => setAdding(false)} firstCard={cards.length === 0} />
        </Suspense>
      ) : undefined}
      <ConfirmDialog
        open={deleting !== undefined}
        title="Delete Payment Method"
        loading={remove.isPending}
        onClose={() => setDeleting(undefined)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => showToast('Payment method deleted successfully', 'success'),
            onSettled: () => setDeleting(undefined),
          })
        }
      >
        Are you sure you want to delete the card ending in {deleting?.last_four}?
      </ConfirmDialog>
    </Box>
  );
}
