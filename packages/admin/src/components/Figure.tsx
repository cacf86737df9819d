/** One figure of a `dl.stats`: its label and value. */
export const Figure = ({ label, value }: { label: string; value: string }) => (
  <div>
    <dt>{label}</dt>
    <dd>{value}</dd>
  </div>
)
