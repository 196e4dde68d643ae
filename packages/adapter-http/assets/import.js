// The import page: a chosen CSV file is read here and put in the form's text field, so the form posts it
// as it posts a pasted one. Without script, pasting the file's text does the same.
const file = document.getElementById('import-file');
const text = document.getElementById('import-csv');
const source = document.getElementById('import-source');
if (file instanceof HTMLInputElement && text instanceof HTMLTextAreaElement) {
  file.addEventListener('change', async () => {
    const chosen = file.files?.[0];
    if (chosen === undefined) return;
    text.value = await chosen.text();
    if (source instanceof HTMLSelectElement) source.value = 'csv';
  });
}
