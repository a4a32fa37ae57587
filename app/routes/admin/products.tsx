import { Form, data, redirect, useNavigation } from "react-router";
import { Link } from "#app/components/link";
import { AdminTable } from "#app/components/admin/admin-table";
import type { Route } from "./+types/products";
import { ErrorSummary, SubmitButton, TextArea, TextField } from "#app/components/form";
import { pageMeta } from "#app/components/meta";
import { db } from "#app/db/client.server";
import { penceToPounds, productFormSchema } from "#app/domain/event-form";
import type { FieldErrors } from "#app/domain/form-basics";
import { formValues, parseForm } from "#app/domain/forms";
import { formatPounds } from "#app/domain/pricing";
import { createProduct, listProducts, updateProduct } from "#app/services/admin-events.server";
import { staffRoute } from "#app/services/guards.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";

export const meta = () =>
  pageMeta("Products and prices", "What is tested at screening events, and its standard price.");
export const headers = pipeHeaders;

const PRODUCT_FIELDS = ["name", "description", "price"] as const;

export const loader = staffRoute("product:edit", async (args: Route.LoaderArgs) => {
  const search = new URL(args.request.url).searchParams;
  const products = await listProducts(db());
  const editing = products.find((product) => product.id === search.get("edit")) ?? null;
  const saved = products.find((product) => product.id === search.get("saved")) ?? null;
  return data(
    {
      products,
      editing: editing
        ? {
            id: editing.id,
            name: editing.name,
            values: {
              name: editing.name,
              description: editing.description ?? "",
              price: penceToPounds(editing.pricePence),
            },
          }
        : null,
      savedName: saved?.name ?? null,
    },
    { headers: NO_STORE },
  );
});

type ActionData = { fieldErrors: FieldErrors; values: Record<string, string> };

export const action = staffRoute("product:edit", async (args: Route.ActionArgs, staff) => {
  const form = await readForm(args.request);
  const intent = String(form.get("intent") ?? "");
  const values = formValues(form, ["intent", "productId"]);
  const parsed = parseForm(productFormSchema, values);
  if (!parsed.ok)
    return data<ActionData>(
      { fieldErrors: parsed.fieldErrors, values },
      { status: 400, headers: NO_STORE },
    );
  if (intent === "update") {
    const id = String(form.get("productId") ?? "");
    if (!(await updateProduct(db(), staff, id, parsed.data)))
      throw data("Not found", { status: 404 });
    return redirect(`/admin/products?saved=${id}`);
  }
  if (intent !== "create") throw data("Unknown action", { status: 400 });
  const created = await createProduct(db(), staff, parsed.data);
  return redirect(`/admin/products?saved=${created.id}`);
});

export default function Products({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const { products, editing, savedName } = loaderData;
  const errors = actionData?.fieldErrors ?? {};
  const values = actionData?.values ?? editing?.values ?? { name: "", description: "", price: "" };
  return (
    <>
      <h1>Products and prices</h1>
      <p>
        A product is what is tested at an event, with its standard price. An event uses its
        product&apos;s price unless the event sets its own. A change of price applies to bookings
        made from now on; bookings already made keep the price they were made at.
      </p>
      {savedName && (
        <div className="notice-panel" role="status">
          <p>Saved {savedName}.</p>
        </div>
      )}

      {products.length === 0 ? (
        <p>No products yet.</p>
      ) : (
        <AdminTable label="Products" columns={["Product", "Price", "Events", "Action"]}>
          {products.map((product) => (
            <tr key={product.id}>
              <th scope="row">
                {product.name}
                {product.description && (
                  <>
                    <br />
                    <span className="hint">{product.description}</span>
                  </>
                )}
              </th>
              <td>{formatPounds(product.pricePence)}</td>
              <td>{product.events}</td>
              <td>
                <Link to={`?edit=${product.id}#product-form`} aria-label={`Change ${product.name}`}>
                  Change
                </Link>
              </td>
            </tr>
          ))}
        </AdminTable>
      )}

      <section aria-labelledby="product-form" className="form-section">
        <h2 id="product-form" tabIndex={-1}>
          {editing ? `Change ${editing.name}` : "Add a product"}
        </h2>
        <ErrorSummary errors={errors} fieldOrder={PRODUCT_FIELDS} />
        <Form
          method="post"
          action={editing ? `/admin/products?edit=${editing.id}` : "/admin/products"}
          noValidate
          className="form"
          key={editing?.id ?? "new"}
        >
          <input type="hidden" name="intent" value={editing ? "update" : "create"} />
          {editing && <input type="hidden" name="productId" value={editing.id} />}
          <TextField
            name="name"
            label="Name"
            hint="As people see it, like PSA Blood Test."
            defaultValue={values.name}
            error={errors.name}
          />
          <TextArea
            name="description"
            label="Description (optional)"
            rows={3}
            defaultValue={values.description}
            error={errors.description}
          />
          <TextField
            name="price"
            label="Standard price in pounds"
            hint="For example, 25.00. Use 0.00 for a free product."
            inputMode="decimal"
            className="input--width-20"
            defaultValue={values.price}
            error={errors.price}
          />
          <div className="button-group">
            <SubmitButton busy={navigation.state === "submitting"} busyLabel="Saving...">
              {editing ? "Save changes" : "Add the product"}
            </SubmitButton>
            {editing && <Link to="/admin/products">Cancel the change</Link>}
          </div>
        </Form>
      </section>
    </>
  );
}
