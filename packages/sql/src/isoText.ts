/**
 * The ISO text of an instant, remembered for the last one asked: the events and rows of one batch nearly always share
 * their time, and `toISOString` per row is a measurable part of a bulk write.
 */
export const isoText = (() => {
  let time = Number.NaN
  let text = ""
  return (at: Date): string => {
    if (at.getTime() !== time) {
      time = at.getTime()
      text = at.toISOString()
    }
    return text
  }
})()
